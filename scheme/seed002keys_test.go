package scheme

import "testing"

// TestSeed002KeysPerSize (fast tier): the seed002 method's ten distinct
// keys exist for every RSA size up to 4096 bits (testdata/keys/generate.sh
// made them with openssl genpkey); RSA-7680 and RSA-15360 have two, and
// their operations say so through DistinctKeys.
func TestSeed002KeysPerSize(t *testing.T) {
	for _, tc := range []struct{ bits, want int }{
		{512, 10}, {768, 10}, {1024, 10}, {2048, 10}, {3072, 10}, {4096, 10}, {7680, 2}, {15360, 2},
	} {
		if n := rsaTestKeyCount(tc.bits); n != tc.want {
			t.Errorf("RSA-%d: %d embedded keys, want %d", tc.bits, n, tc.want)
		}
	}
	for _, name := range []string{"RSA-2048-PSS-SHA256", "RSA-15360-PKCS1v15-SHA256", "RSA-2048-OAEP-SHA256"} {
		s, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range s.Operations() {
			if op.Name == OpKeygen {
				continue
			}
			if op.DistinctKeys == 0 {
				t.Errorf("%s %s: DistinctKeys unset", name, op.Name)
			}
		}
	}
}
