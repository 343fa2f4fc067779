// Command cryptocost tells you what cryptography costs: time, cycles,
// memory, bytes, energy. This package only wires flags to the library
// packages; see docs/ARCHITECTURE.md.
//
// RSA-512 and RSA-768 key generation is measured because the seed studies
// measured it; crypto/rsa refuses keys below 1024 bits without this setting.
//
//go:debug rsa1024min=0
package main

import (
	"os"

	_ "github.com/cryptocost/cryptocost/scheme/provider/all" // C-library providers (listed even when absent)
)

func main() { os.Exit(Main()) }
