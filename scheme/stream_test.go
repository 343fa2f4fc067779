package scheme

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func init() {
	sizeCheckers[FamilyStream] = func(t *testing.T, s Scheme) {
		info := s.Info()
		ss := s.(StreamScheme)
		key := testData(info.Sizes.Key, "size check key", 0)
		iv := testData(info.Sizes.Nonce, "size check iv", 0)
		if ss, ok := s.(*streamScheme); ok && ss.testIV != nil {
			iv = ss.testIV(iv)
		}
		st, err := ss.NewStream(key, iv)
		if err != nil {
			t.Fatalf("NewStream with the declared %d-byte key and %d-byte IV: %v", info.Sizes.Key, info.Sizes.Nonce, err)
		}
		for _, n := range []int{0, 1, 3, 64, 100} {
			in := testData(n, "size check", n)
			out := make([]byte, n+8)
			st.XORKeyStream(out[:n], in)
			if n > 0 && bytes.Equal(out[:n], in) {
				t.Errorf("%d bytes came out unencrypted", n)
			}
			if !bytes.Equal(out[n:], make([]byte, 8)) {
				t.Errorf("XORKeyStream of %d bytes wrote past them", n)
			}
		}
		if _, err := ss.NewStream(key[:len(key)-1], iv); err == nil {
			t.Errorf("NewStream accepted a %d-byte key; declared %d", len(key)-1, info.Sizes.Key)
		}
		if _, err := ss.NewStream(key, append(bytes.Clone(iv), 0)); err == nil {
			t.Errorf("NewStream accepted a %d-byte IV; declared %d", len(iv)+1, info.Sizes.Nonce)
		}
	}
}

// streamSchemesHere are the schemes stream.go registers.
var streamSchemesHere = []string{"RC4-128", "Salsa20", "ChaCha20", "SNOW3G-UEA2", "ZUC-EEA3"}

// TestStreamKATCatchesAWrongVector shows the correctness gate can fail: for
// each scheme, a copy whose first expected output is off by one bit does not
// pass. For the 3GPP ciphers the flipped bit is the last one LENGTH covers,
// so the bit-length handling is exercised too.
func TestStreamKATCatchesAWrongVector(t *testing.T) {
	for _, name := range streamSchemesHere {
		s := Must(Lookup(name)).(*streamScheme)
		bad := *s
		bad.vectors = append([]streamVector(nil), s.vectors...)
		v := &bad.vectors[0]
		out := streamHex(v.Out)
		bit := len(out)*8 - 1
		if v.Bits > 0 {
			bit = v.Bits - 1
		}
		out[bit/8] ^= 0x80 >> (bit % 8)
		v.Out = hexString(out)
		if err := bad.KAT(); !errors.Is(err, ErrKAT) {
			t.Errorf("%s: KAT with a corrupted vector returned %v, want ErrKAT", name, err)
		}
	}
}

// TestStreamKATIgnoresBitsPastLength shows the other side: a bit past a
// 3GPP test set's LENGTH is not compared (the output there is undefined).
func TestStreamKATIgnoresBitsPastLength(t *testing.T) {
	s := Must(Lookup("SNOW3G-UEA2")).(*streamScheme)
	bad := *s
	bad.vectors = append([]streamVector(nil), s.vectors...)
	v := &bad.vectors[0] // 798 bits: the last 2 bits of byte 99 are outside
	out := streamHex(v.Out)
	out[v.Bits/8] ^= 1
	v.Out = hexString(out)
	if err := bad.KAT(); err != nil {
		t.Errorf("a flipped bit past LENGTH failed the KAT: %v", err)
	}
}

// TestRC4IsLegacy: RC4 is broken (biased keystream, RFC 7465) and must say
// so; the others are not legacy.
func TestRC4IsLegacy(t *testing.T) {
	for _, name := range streamSchemesHere {
		info := Must(Lookup(name)).Info()
		if legacy := info.Legacy != ""; legacy != (name == "RC4-128") {
			t.Errorf("%s: Legacy = %q", name, info.Legacy)
		}
	}
	if info := Must(Lookup("rc4")).Info(); !strings.Contains(info.Legacy, "RFC 7465") {
		t.Errorf("RC4-128 Legacy %q does not cite RFC 7465", info.Legacy)
	}
}

// TestStreamSplitsMatchOneCall checks the cipher.Stream contract that the
// wrappers here (ZUC, Salsa20) must keep: any split of the data into calls,
// in place or not, gives what one call gives.
func TestStreamSplitsMatchOneCall(t *testing.T) {
	for _, name := range streamSchemesHere {
		t.Run(name, func(t *testing.T) {
			s := Must(Lookup(name)).(*streamScheme)
			key, iv := s.testKeyIV(3)
			src := testData(700, "split", 0)
			one, err := s.NewStream(key, iv)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]byte, len(src))
			one.XORKeyStream(want, src)
			for _, step := range []int{1, 3, 5, 63, 64, 65, 130} {
				for _, inPlace := range []bool{false, true} {
					st, _ := s.NewStream(key, iv)
					got := make([]byte, len(src))
					in := src
					if inPlace {
						copy(got, src)
						in = got
					}
					for i := 0; i < len(src); i += step {
						j := min(i+step, len(src))
						st.XORKeyStream(got[i:j], in[i:j])
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("calls of %d bytes (in place %v) differ from one call", step, inPlace)
					}
				}
			}
		})
	}
}

func TestStream3GPPIV(t *testing.T) {
	iv := stream3GPPIV(0x72A4F20F, 0x0C, 1)
	if got, want := hexString(iv), "72a4f20f64"; got != want {
		t.Errorf("iv = %s, want %s", got, want)
	}
	count, bearer, dir, err := streamParse3GPPIV(iv)
	if err != nil || count != 0x72A4F20F || bearer != 0x0C || dir != 1 {
		t.Errorf("parse = %#x, %#x, %d, %v", count, bearer, dir, err)
	}
	for _, bad := range []string{"72a4f20f", "72a4f20f6400", "72a4f20f65", "72a4f20f66"} {
		if _, _, _, err := streamParse3GPPIV(unhex(bad)); err == nil {
			t.Errorf("iv %s accepted", bad)
		}
	}
}

// TestStreamLoopsDoNotAllocate: the timed loops do only the operation, and
// XORing into a reused buffer needs no allocation, also for sizes that end
// inside a keystream word or block (1001 bytes).
func TestStreamLoopsDoNotAllocate(t *testing.T) {
	for _, name := range streamSchemesHere {
		for _, op := range Must(Lookup(name)).Operations() {
			if op.Input != InputBulk {
				continue
			}
			for _, size := range []int{64, 1001} {
				loop, err := op.Prepare(Args{Size: size})
				if err != nil {
					t.Fatalf("%s %s: %v", name, op.Name, err)
				}
				if a := testing.AllocsPerRun(5, func() { loop(3) }); a != 0 {
					t.Errorf("%s %s of %d bytes: %.1f allocations per loop", name, op.Name, size, a)
				}
			}
		}
	}
}
