package scheme_test

import (
	"encoding/hex"
	"fmt"

	"github.com/cryptocost/cryptocost/scheme"
)

// Look a scheme up by name (case-insensitive, aliases too), check it
// against its known-answer vectors, and use it through its family's
// interface.
func ExampleLookup() {
	s, err := scheme.Lookup("sha-256")
	if err != nil {
		panic(err)
	}
	info := s.Info()
	fmt.Println(info.Name, info.Family, info.Security.Bits, "bits")
	if err := s.KAT(); err != nil {
		panic(err)
	}
	h := s.(scheme.HashScheme).New()
	h.Write([]byte("abc"))
	fmt.Println(hex.EncodeToString(h.Sum(nil)))
	// Output:
	// SHA-256 hash 128 bits
	// ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
}

// A name that is not there is refused with the closest ones, so a user
// sees what would work.
func ExampleLookup_unknown() {
	_, err := scheme.Lookup("SHA-265")
	fmt.Println(err != nil)
	fmt.Println(scheme.Closest("SHA-265", 2))
	// Output:
	// true
	// [SHA-256 SHA-224]
}
