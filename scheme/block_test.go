package scheme

import (
	"bytes"
	"crypto/cipher"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

func init() {
	sizeCheckers[FamilyBlock] = func(t *testing.T, s Scheme) {
		bs := s.(BlockScheme)
		info := bs.Info()
		key := testData(info.Sizes.Key, "size-check/key", 0)
		iv := testData(info.Sizes.Nonce, "size-check/iv", 0)
		b, err := bs.NewCipher(key)
		if err != nil {
			t.Fatalf("NewCipher with the declared %d-byte key: %v", info.Sizes.Key, err)
		}
		if _, err := bs.NewCipher(append(key, 0)); err == nil {
			t.Errorf("NewCipher accepted a %d-byte key; the scheme declares %d", len(key)+1, info.Sizes.Key)
		}
		if got, want := b.BlockSize(), info.Sizes.Block; got != want {
			t.Errorf("BlockSize() = %d, declared %d", got, want)
		}
		if info.Sizes.Nonce != info.Sizes.Block {
			t.Errorf("IV size %d, block %d: the modes take a one-block IV", info.Sizes.Nonce, info.Sizes.Block)
		}
		if got, want := info.Param("key_bits"), itoa(8*info.Sizes.Key); got != want {
			t.Errorf("key_bits = %s, want %s", got, want)
		}
		if got, want := info.Param("block_bits"), itoa(8*info.Sizes.Block); got != want {
			t.Errorf("block_bits = %s, want %s", got, want)
		}
		// Each mode writes exactly len(src) bytes, and the bytes it writes
		// decrypt back: a sentinel after the output must survive.
		for _, m := range blockModes {
			size := 2 * info.Sizes.Block
			if !m.wholeBlocks() {
				size += 3 // a partial final block
			}
			msg := testData(size, "size-check", 0)
			ct := bytes.Repeat([]byte{0xa5}, size+info.Sizes.Block)
			newBlockCrypter(b, m, false, iv)(ct, msg)
			pt := make([]byte, size)
			newBlockCrypter(b, m, true, iv)(pt, ct[:size])
			if !bytes.Equal(ct[size:], bytes.Repeat([]byte{0xa5}, info.Sizes.Block)) {
				t.Errorf("%s wrote past the %d-byte input", m, size)
			}
			if !bytes.Equal(pt, msg) {
				t.Errorf("%s: the %d output bytes do not decrypt to the input", m, size)
			}
		}
	}
}

// TestBlockKATCatchesAWrongVector shows the correctness gate can fail: one
// bit off in a cipher vector or in any mode's vector, and KAT reports ErrKAT.
func TestBlockKATCatchesAWrongVector(t *testing.T) {
	for _, tc := range []struct {
		scheme string
		vector int
	}{
		{"AES-128", 0},   // FIPS 197 C.1, the raw cipher
		{"AES-128", 2},   // SP 800-38A CBC
		{"AES-256", 4},   // SP 800-38A CTR
		{"AES-192", 3},   // SP 800-38A OFB
		{"DES", 1},       // FIPS 81 CBC
		{"3DES-2key", 0}, // CAVP TECBMMT2
		{"IDEA", 0},      // our own implementation
	} {
		s := Must(Lookup(tc.scheme)).(*blockScheme)
		bad := *s
		bad.vectors = append([]blockVector(nil), s.vectors...)
		out := unhex(bad.vectors[tc.vector].Out)
		out[len(out)-1] ^= 1
		bad.vectors[tc.vector].Out = hexString(out)
		if err := bad.KAT(); !errors.Is(err, ErrKAT) {
			t.Errorf("%s with vector %d corrupted: KAT returned %v, want ErrKAT", tc.scheme, tc.vector, err)
		}
	}
}

// TestBlockKATCatchesABrokenMode shows the round trip that stands in for
// published mode vectors can fail: a "cipher" whose decryption does not
// invert its encryption does not pass.
func TestBlockKATCatchesABrokenMode(t *testing.T) {
	s := Must(Lookup("XTEA")).(*blockScheme)
	bad := *s
	bad.vectors = nil
	bad.newCipher = func(key []byte) (cipher.Block, error) {
		b, err := s.newCipher(key)
		return brokenDecrypt{b}, err
	}
	if err := bad.KAT(); !errors.Is(err, ErrKAT) {
		t.Fatalf("KAT of a cipher that cannot decrypt returned %v, want ErrKAT", err)
	}
}

// brokenDecrypt is a block cipher whose Decrypt is Encrypt.
type brokenDecrypt struct{ cipher.Block }

func (b brokenDecrypt) Decrypt(dst, src []byte) { b.Encrypt(dst, src) }

// TestBlockCheckSizeRejectsPartialBlocks: ECB and CBC take whole blocks
// only, and say which sizes would work; OFB and CTR take any size.
func TestBlockCheckSizeRejectsPartialBlocks(t *testing.T) {
	for _, tc := range []struct {
		scheme, op string
		size       int
		ok         bool
	}{
		{"AES-128", "encrypt-ecb", 100, false},
		{"AES-128", "decrypt-cbc", 100, false},
		{"AES-128", "encrypt-ecb", 96, true},
		{"AES-128", "encrypt-ctr", 100, true},
		{"DES", "encrypt-cbc", 12, false},
		{"DES", "encrypt-cbc", 16, true},
		{"Blowfish-128", "decrypt-ofb", 13, true},
	} {
		op := blockOp(t, tc.scheme, tc.op)
		err := op.CheckSize(tc.size)
		if (err == nil) != tc.ok {
			t.Errorf("%s %s size %d: CheckSize = %v, want ok=%v", tc.scheme, tc.op, tc.size, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "use ") {
			t.Errorf("%s %s size %d: error %q does not suggest a size", tc.scheme, tc.op, tc.size, err)
		}
		// Prepare refuses what CheckSize refuses, rather than panic later.
		if _, err := op.Prepare(Args{Size: tc.size}); (err == nil) != tc.ok {
			t.Errorf("%s %s size %d: Prepare error = %v, want ok=%v", tc.scheme, tc.op, tc.size, err, tc.ok)
		}
	}
}

// blockLibraryAllocs are allocations a library makes inside the operation
// itself, which the timed loop rightly includes.
var blockLibraryAllocs = map[string]float64{
	// gmsm's assembly CBC decrypter allocates two scratch buffers on every
	// CryptBlocks call (sm4/cbc_cipher_asm.go, v0.15.5).
	"SM4@emmansun/gmsm decrypt-cbc": 2,
}

// TestBlockLoopsDoNotAllocate: ECB and CBC reuse everything, so their timed
// loops allocate nothing; OFB and CTR allocate only the fresh stream per
// message that Go's API requires (see newBlockCrypter).
func TestBlockLoopsDoNotAllocate(t *testing.T) {
	for _, s := range All() {
		if s.Info().Family != FamilyBlock {
			continue
		}
		for _, op := range s.Operations() {
			if op.Input == InputNone {
				continue
			}
			loop, err := op.Prepare(Args{Size: 1024})
			if err != nil {
				t.Fatalf("%s %s: %v", s.Info().ID(), op.Name, err)
			}
			allocs := testing.AllocsPerRun(10, func() { _ = loop(1) })
			limit := 0.0
			if strings.HasSuffix(op.Name, "-ofb") || strings.HasSuffix(op.Name, "-ctr") {
				limit = 4 // the stream state, its counter or IV, its keystream buffer
			}
			limit += blockLibraryAllocs[s.Info().ID()+" "+op.Name]
			if allocs > limit {
				t.Errorf("%s %s: %.0f allocations per message, want at most %.0f", s.Info().ID(), op.Name, allocs, limit)
			}
		}
	}
}

func TestBlockNewCipherRejectsOtherKeySizes(t *testing.T) {
	s := Must(Lookup("AES-128")).(BlockScheme)
	_, err := s.NewCipher(make([]byte, 32))
	if err == nil || !strings.Contains(err.Error(), "want 16") {
		t.Fatalf("AES-128 NewCipher(32-byte key) error = %v, want one naming the 16-byte key size", err)
	}
}

// TestBlockModesMatchOpenSSL compares our modes with OpenSSL's on random
// keys for the ciphers OpenSSL also has, so the non-AES ciphers' CBC, OFB
// and CTR are checked against a real peer and not only by round trip. It
// skips when the openssl CLI, or its legacy provider, is missing.
func TestBlockModesMatchOpenSSL(t *testing.T) {
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("no openssl on PATH")
	}
	for _, tc := range []struct {
		scheme, prefix string // openssl cipher "<prefix>-<mode>"
		modes          []blockMode
	}{
		{"AES-192", "aes-192", blockModes},
		{"DES", "des", []blockMode{blockModeECB, blockModeCBC, blockModeOFB}},
		{"3DES-2key", "des-ede", []blockMode{blockModeECB, blockModeCBC, blockModeOFB}},
		{"3DES-3key", "des-ede3", []blockMode{blockModeECB, blockModeCBC, blockModeOFB}},
		{"Blowfish-128", "bf", []blockMode{blockModeECB, blockModeCBC, blockModeOFB}},
		{"CAST5", "cast5", []blockMode{blockModeECB, blockModeCBC, blockModeOFB}},
		{"SM4", "sm4", blockModes},
	} {
		s := Must(Lookup(tc.scheme)).(*blockScheme)
		key, iv := s.testKeyIV(7)
		b, err := s.NewCipher(key)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tc.modes {
			size := 4 * s.info.Sizes.Block
			if !m.wholeBlocks() {
				size += 5
			}
			msg := testData(size, "openssl", 7)
			got := make([]byte, size)
			newBlockCrypter(b, m, false, iv)(got, msg)

			name := tc.prefix + "-" + string(m)
			if tc.prefix == "des-ede" || tc.prefix == "des-ede3" {
				if m == blockModeECB {
					name = tc.prefix // OpenSSL's name for TDEA-ECB
				}
			}
			args := []string{"enc", "-" + name, "-K", hexString(key), "-nopad", "-provider", "legacy", "-provider", "default"}
			if m != blockModeECB {
				args = append(args, "-iv", hexString(iv))
			}
			cmd := exec.Command("openssl", args...)
			cmd.Stdin = bytes.NewReader(msg)
			want, err := cmd.Output()
			if err != nil {
				t.Skipf("openssl %s: %v (no legacy provider?)", strings.Join(args, " "), err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s %s: got %x, openssl %s gives %x", tc.scheme, m, got, name, want)
			}
		}
	}
}

// blockOp returns the named operation of a block scheme.
func blockOp(t *testing.T, scheme, name string) Operation {
	t.Helper()
	for _, op := range Must(Lookup(scheme)).Operations() {
		if op.Name == name {
			return op
		}
	}
	t.Fatalf("%s has no operation %s", scheme, name)
	return Operation{}
}
