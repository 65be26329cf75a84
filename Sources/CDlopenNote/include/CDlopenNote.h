// No declarations: the module only carries the .note.dlopen section of note.c into the executables
// that depend on it.
