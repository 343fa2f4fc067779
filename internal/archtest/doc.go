// Package archtest holds tests of the module's shape that no one package
// owns: which packages may import which (docs/ARCHITECTURE.md). It has no
// code of its own.
package archtest
