// Package cprov is the Go side shared by cryptocost's C-library providers:
// it turns a provider's C job interface (ccjob.h) into the scheme package's
// Impl types, so each provider is a C file and a table of the algorithms
// its library offers.
//
// Why cgo: the libraries are C, and measuring them as the devices that ship
// them run them means calling their C API. Why dlopen: a provider opens
// its library when the registry is first used, so a binary built where the
// headers were found still starts where the library is missing, and says
// so ("library absent") instead of failing to load.
package cprov
