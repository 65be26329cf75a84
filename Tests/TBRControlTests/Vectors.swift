/// Test vectors from /work/shared/vectors (TV-DATASET A, TV-PSKC, TV-VERHOEFF).
enum Vectors {
    /// Dataset A, "OpenThreadDemo": 105 bytes, a complete Active dataset.
    static let datasetA = """
        0e080000000000010000000300000f35060004001fffe0020811111111222222220708fdad70bfe5aa15dd05100011223344\
        5566778899aabbccddeeff030e4f70656e54687265616444656d6f010212340410445f2b5ca6f2a93a55ce570a70efeecb0c\
        0402a0f7f8
        """
    /// Dataset A's network key.
    static let networkKeyA = "00112233445566778899aabbccddeeff"
    /// Dataset A's PSKc.
    static let pskcA = "445f2b5ca6f2a93a55ce570a70efeecb"
    /// A Network Name TLV whose length byte says 17: one more than the maximum.
    static let nameTooLong = "0311" + String(repeating: "41", count: 17)
}
