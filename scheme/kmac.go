package scheme

import (
	"bytes"
	"crypto/sha3"
	"encoding/binary"
	"fmt"
	"hash"
)

// KMAC (NIST SP 800-185 §4): cSHAKE with function name "KMAC", the key
// absorbed first as bytepad(encode_string(K), rate), the output length
// appended as right_encode(L) before squeezing. Go's crypto/sha3 has
// cSHAKE but no KMAC, so the few lines of encoding are here (§2.3).

// kmac is KMAC128 or KMAC256 with output length size bytes and
// customisation S, as a hash.Hash.
type kmac struct {
	*sha3.SHAKE
	keyed []byte // the state after the key, for Reset
	newf  func(N, S []byte) *sha3.SHAKE
	size  int
	rate  int
}

// kmacLeftEncode is SP 800-185 §2.3.1 left_encode(x): the byte count of
// x's big-endian form, then that form (at least one byte).
func kmacLeftEncode(x uint64) []byte {
	var b [9]byte
	binary.BigEndian.PutUint64(b[1:], x)
	i := 1
	for i < 8 && b[i] == 0 {
		i++
	}
	b[i-1] = byte(9 - i)
	return b[i-1:]
}

// kmacRightEncode is right_encode(x): the big-endian form, then its byte count.
func kmacRightEncode(x uint64) []byte {
	l := kmacLeftEncode(x)
	return append(l[1:], l[0])
}

func newKMAC(newf func(N, S []byte) *sha3.SHAKE, rate, size int, key, custom []byte) (*kmac, error) {
	if len(key) == 0 {
		return nil, fmt.Errorf("KMAC: empty key")
	}
	x := newf([]byte("KMAC"), custom)
	// bytepad(encode_string(K), rate), §2.3.3.
	pad := append(kmacLeftEncode(uint64(rate)), kmacLeftEncode(uint64(8*len(key)))...)
	pad = append(pad, key...)
	pad = append(pad, make([]byte, (rate-len(pad)%rate)%rate)...)
	x.Write(pad)
	keyed, err := x.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return &kmac{SHAKE: x, keyed: keyed, newf: newf, size: size, rate: rate}, nil
}

func (k *kmac) Size() int      { return k.size }
func (k *kmac) BlockSize() int { return k.rate }

func (k *kmac) Reset() {
	if err := k.SHAKE.UnmarshalBinary(k.keyed); err != nil {
		panic(err)
	}
}

// Sum appends right_encode(L) and squeezes L bits from a copy of the
// state, leaving the message state as it was (hash.Hash's contract).
func (k *kmac) Sum(b []byte) []byte {
	st, err := k.SHAKE.MarshalBinary()
	if err != nil {
		panic(err)
	}
	c := k.newf([]byte("KMAC"), nil)
	if err := c.UnmarshalBinary(st); err != nil {
		panic(err)
	}
	c.Write(kmacRightEncode(uint64(8 * k.size)))
	out := make([]byte, k.size)
	c.Read(out)
	return append(b, out...)
}

// SP 800-185's KMAC samples (NIST CSRC "KMAC_samples.pdf"): key 40..5f,
// data 00..03 or 00..c7.
var (
	kmacSampleKey = func() []byte {
		k := make([]byte, 32)
		for i := range k {
			k[i] = 0x40 + byte(i)
		}
		return k
	}()
	kmacSampleData = func(n int) []byte {
		d := make([]byte, n)
		for i := range d {
			d[i] = byte(i)
		}
		return d
	}
)

// kmacCustomCheck checks a sample with a customisation string, which the
// registered (empty-S) scheme's vectors cannot express.
func kmacCustomCheck(name string, newf func(N, S []byte) *sha3.SHAKE, rate, size int, sample string, data []byte, custom, want string) func() error {
	return func() error {
		k, err := newKMAC(newf, rate, size, kmacSampleKey, []byte(custom))
		if err != nil {
			return fmt.Errorf("%s: %w: %s: %v", name, ErrKAT, sample, err)
		}
		k.Write(data)
		if got := k.Sum(nil); !bytes.Equal(got, unhex(want)) {
			return katError(name, sample, got, unhex(want))
		}
		return nil
	}
}

func init() {
	const standard = "NIST SP 800-185 §4 (vectors: NIST KMAC_samples, Samples %s)"
	k128 := newMAC(Info{
		Name: "KMAC128", Provider: ProviderGo, Params: []Param{{"customization", "empty"}, {"output_bits", "256"}},
		Security: Security{Bits: 128, Note: "SP 800-185 §8.4.2: KMAC128 with a key of at least 128 bits"},
		Sizes:    Sizes{Key: 32, Output: 32, Block: 168},
		Standard: fmt.Sprintf(standard, "#1 and #2"),
	}, func(key []byte) (hash.Hash, error) { return newKMAC(sha3.NewCSHAKE128, 168, 32, key, nil) },
		macVector{Name: "Sample #1", Key: kmacSampleKey, Msg: kmacSampleData(4),
			Tag: "e5780b0d3ea6f7d3a429c5706aa43a00fadbd7d49628839e3187243f456ee14e"})
	k128.check = kmacCustomCheck("KMAC128", sha3.NewCSHAKE128, 168, 32, "Sample #2", kmacSampleData(4), "My Tagged Application",
		"3b1fba963cd8b0b59e8c1a6d71888b7143651af8ba0a7070c0979e2811324aa5")
	k256 := newMAC(Info{
		Name: "KMAC256", Provider: ProviderGo, Params: []Param{{"customization", "empty"}, {"output_bits", "512"}},
		Security: Security{Bits: 256, Note: "SP 800-185 §8.4.2: KMAC256 with a key of at least 256 bits"},
		Sizes:    Sizes{Key: 32, Output: 64, Block: 136},
		Standard: fmt.Sprintf(standard, "#4 and #5"),
	}, func(key []byte) (hash.Hash, error) { return newKMAC(sha3.NewCSHAKE256, 136, 64, key, nil) },
		macVector{Name: "Sample #5", Key: kmacSampleKey, Msg: kmacSampleData(200),
			Tag: "75358cf39e41494e949707927cee0af20a3ff553904c86b08f21cc414bcfd691589d27cf5e15369cbbff8b9a4c2eb17800855d0235ff635da82533ec6b759b69"})
	k256.check = kmacCustomCheck("KMAC256", sha3.NewCSHAKE256, 136, 64, "Sample #4", kmacSampleData(4), "My Tagged Application",
		"20c570c31346f703c9ac36c61c03cb64c3970d0cfc787e9b79599d273a68d2f7f69d4cc3de9d104a351689f27cf6f5951f0103f33f4f24871024d9c27773a8dd")
	register(k128)
	register(k256)
}
