// The declarative command-tree parser.
