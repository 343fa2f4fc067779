package tlslab

import (
	"encoding/hex"
	"strings"
	"testing"
)

// unhex decodes spaced hexadecimal test vectors.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
