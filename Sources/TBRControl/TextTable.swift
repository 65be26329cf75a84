/// Aligned text for people: tables with a header row, and "name  value" field lists.
enum TextTable {
    /// Rows under `header`, each column padded to its widest cell, two spaces apart; the last column
    /// is not padded.
    static func render(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let columns = header.count
        var widths = Array(repeating: 0, count: columns)
        for row in all {
            for (i, cell) in row.enumerated() where i < columns { widths[i] = max(widths[i], cell.count) }
        }
        return all.map { row in
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// One `name  value` line per field, the values aligned.
    static func fields(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { name, value in name + String(repeating: " ", count: width - name.count) + "  " + value }
            .joined(separator: "\n")
    }
}
