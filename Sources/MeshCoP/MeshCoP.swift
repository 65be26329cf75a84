// MeshCoP values and codecs.
