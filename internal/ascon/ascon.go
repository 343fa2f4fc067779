// Package ascon implements Ascon-AEAD128, the authenticated cipher of NIST
// SP 800-232 "Ascon-Based Lightweight Cryptography Standards for Constrained
// Devices" (final, August 2025).
//
// Ascon-AEAD128 is not the Ascon-128 of the CAESAR portfolio and the NIST
// lightweight-cryptography finalist (Ascon v1.2, which CIRCL implements):
// SP 800-232 reads and writes the 64-bit state words little-endian instead of
// big-endian, uses the 128-bit rate of Ascon-128a with a new initial value
// (0x00001000808c0001), moves the padding and domain-separation bits to the
// little-endian positions, and its ciphertexts differ from v1.2's. The
// permutation Ascon-p is unchanged.
//
// The known answers in the tests are the Ascon team's reference KAT file
// (ascon-c, crypto_aead/asconaead128/LWC_AEAD_KAT_128_128.txt).
package ascon

import (
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"math/bits"
)

// Sizes of Ascon-AEAD128 in bytes (SP 800-232 §4: a 128-bit key, a 128-bit
// nonce and a 128-bit tag).
const (
	KeySize   = 16
	NonceSize = 16
	TagSize   = 16
)

// rate is the number of bytes absorbed per permutation call: 128 bits for
// Ascon-AEAD128 (SP 800-232 §4.1, r = 128).
const rate = 16

// iv is the initial value of Ascon-AEAD128, SP 800-232 §4.1.1 eq. (4.1): the
// algorithm identifier 1, a = 12 and b = 8 rounds, rate 128 and a 128-bit tag,
// packed as 0x00001000808c0001.
const iv = 0x00001000808c0001

// Round counts: Ascon-p[12] for initialisation and finalisation, Ascon-p[8]
// between blocks (SP 800-232 §4.1).
const (
	roundsA = 12
	roundsB = 8
)

// dsep is the domain-separation bit XORed into the last state word between
// the associated data and the plaintext: "S ← S ⊕ (0^319 ‖ 1)" in the
// standard's bit order, which with little-endian words is the top bit of S4
// (SP 800-232 Algorithm 3 step 11).
const dsep = 1 << 63

// ErrOpen is returned by Open when the tag does not verify.
var ErrOpen = errors.New("ascon: message authentication failed")

// AEAD128 is Ascon-AEAD128 under one key. It implements crypto/cipher.AEAD
// and is safe for concurrent use: Seal and Open keep their state on the stack.
type AEAD128 struct {
	k0, k1 uint64 // the key as two little-endian words
}

// New returns Ascon-AEAD128 keyed with a 16-byte key.
func New(key []byte) (*AEAD128, error) {
	if len(key) != KeySize {
		return nil, errors.New("ascon: Ascon-AEAD128 needs a 16-byte key")
	}
	return &AEAD128{
		k0: binary.LittleEndian.Uint64(key[0:8]),
		k1: binary.LittleEndian.Uint64(key[8:16]),
	}, nil
}

// NonceSize returns 16: Ascon-AEAD128 takes a 128-bit nonce.
func (a *AEAD128) NonceSize() int { return NonceSize }

// Overhead returns 16: the ciphertext is the plaintext plus a 128-bit tag.
func (a *AEAD128) Overhead() int { return TagSize }

// state is the 320-bit Ascon state as five 64-bit words S0..S4.
type state [5]uint64

// Seal encrypts and authenticates plaintext, authenticates additionalData,
// and appends the ciphertext and tag to dst (SP 800-232 Algorithm 3). The
// nonce must be 16 bytes and never repeat under one key. dst and plaintext
// may overlap exactly or not at all.
func (a *AEAD128) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	if len(nonce) != NonceSize {
		panic("ascon: Ascon-AEAD128 needs a 16-byte nonce")
	}
	ret, out := sliceForAppend(dst, len(plaintext)+TagSize)
	var s state
	a.start(&s, nonce, additionalData)
	encrypt(&s, out[:len(plaintext)], plaintext)
	a.finish(&s, out[len(plaintext):])
	return ret
}

// Open authenticates and decrypts ciphertext (SP 800-232 Algorithm 4) and
// appends the plaintext to dst. It compares the tag in constant time and,
// if it does not verify, returns ErrOpen and clears the bytes it wrote.
func (a *AEAD128) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(nonce) != NonceSize {
		panic("ascon: Ascon-AEAD128 needs a 16-byte nonce")
	}
	if len(ciphertext) < TagSize {
		return nil, ErrOpen
	}
	n := len(ciphertext) - TagSize
	ct, tag := ciphertext[:n], ciphertext[n:]
	ret, out := sliceForAppend(dst, n)
	var s state
	a.start(&s, nonce, additionalData)
	decrypt(&s, out, ct)
	var want [TagSize]byte
	a.finish(&s, want[:])
	if subtle.ConstantTimeCompare(want[:], tag) != 1 {
		clear(out)
		return nil, ErrOpen
	}
	return ret, nil
}

// start initialises the state with the key and nonce (Algorithm 3 steps 1-3)
// and absorbs the associated data (steps 4-11).
func (a *AEAD128) start(s *state, nonce, ad []byte) {
	s[0] = iv
	s[1], s[2] = a.k0, a.k1
	s[3] = binary.LittleEndian.Uint64(nonce[0:8])
	s[4] = binary.LittleEndian.Uint64(nonce[8:16])
	permute(s, roundsA)
	s[3] ^= a.k0
	s[4] ^= a.k1

	if len(ad) > 0 {
		for ; len(ad) >= rate; ad = ad[rate:] {
			s[0] ^= binary.LittleEndian.Uint64(ad[0:8])
			s[1] ^= binary.LittleEndian.Uint64(ad[8:16])
			permute(s, roundsB)
		}
		// The last block, padded with a 1 bit after the data (pad(X, 128),
		// SP 800-232 Algorithm 2): a whole extra block when len(ad) was a
		// multiple of the rate.
		absorbPartial(s, ad)
		permute(s, roundsB)
	}
	s[4] ^= dsep
}

// finish runs the finalisation (Algorithm 3 steps 19-21) and writes the tag.
func (a *AEAD128) finish(s *state, tag []byte) {
	s[2] ^= a.k0
	s[3] ^= a.k1
	permute(s, roundsA)
	binary.LittleEndian.PutUint64(tag[0:8], s[3]^a.k0)
	binary.LittleEndian.PutUint64(tag[8:16], s[4]^a.k1)
}

// encrypt absorbs plaintext p into the rate and writes the ciphertext to c
// (Algorithm 3 steps 12-18). c and p are the same length.
func encrypt(s *state, c, p []byte) {
	for ; len(p) >= rate; p, c = p[rate:], c[rate:] {
		s[0] ^= binary.LittleEndian.Uint64(p[0:8])
		s[1] ^= binary.LittleEndian.Uint64(p[8:16])
		binary.LittleEndian.PutUint64(c[0:8], s[0])
		binary.LittleEndian.PutUint64(c[8:16], s[1])
		permute(s, roundsB)
	}
	absorbPartial(s, p)
	var buf [rate]byte
	binary.LittleEndian.PutUint64(buf[0:8], s[0])
	binary.LittleEndian.PutUint64(buf[8:16], s[1])
	copy(c, buf[:len(p)])
}

// decrypt recovers the plaintext p of ciphertext c (Algorithm 4 steps 12-18):
// the rate takes the ciphertext bytes, so the state matches the encryption's.
func decrypt(s *state, p, c []byte) {
	for ; len(c) >= rate; p, c = p[rate:], c[rate:] {
		c0 := binary.LittleEndian.Uint64(c[0:8])
		c1 := binary.LittleEndian.Uint64(c[8:16])
		binary.LittleEndian.PutUint64(p[0:8], s[0]^c0)
		binary.LittleEndian.PutUint64(p[8:16], s[1]^c1)
		s[0], s[1] = c0, c1
		permute(s, roundsB)
	}
	// Last, partial block: P = C ⊕ S[rate], then the rate's first len(c)
	// bytes become C and the padding bit follows them.
	var buf [rate]byte
	copy(buf[:], c)
	c0 := binary.LittleEndian.Uint64(buf[0:8])
	c1 := binary.LittleEndian.Uint64(buf[8:16])
	binary.LittleEndian.PutUint64(buf[0:8], s[0]^c0)
	binary.LittleEndian.PutUint64(buf[8:16], s[1]^c1)
	copy(p, buf[:len(c)])
	m0, m1 := byteMask(len(c))
	s[0] = s[0]&^m0 | c0
	s[1] = s[1]&^m1 | c1
	padAt(s, len(c))
}

// absorbPartial XORs a block of fewer than 16 bytes and its padding into the
// rate.
func absorbPartial(s *state, x []byte) {
	var buf [rate]byte
	copy(buf[:], x)
	s[0] ^= binary.LittleEndian.Uint64(buf[0:8])
	s[1] ^= binary.LittleEndian.Uint64(buf[8:16])
	padAt(s, len(x))
}

// padAt XORs the padding bit for a last block of n bytes (0 ≤ n < 16): the
// byte 0x01 at byte position n of the little-endian rate (SP 800-232
// Algorithm 2 with the byte order of its Appendix A).
func padAt(s *state, n int) {
	s[n/8] ^= 1 << (8 * (n % 8))
}

// byteMask returns the masks of the rate words covering the first n bytes
// (0 ≤ n < 16).
func byteMask(n int) (m0, m1 uint64) {
	if n >= 8 {
		return ^uint64(0), 1<<(8*(n-8)) - 1
	}
	return 1<<(8*n) - 1, 0
}

// roundConstants are the constants c_i of Ascon-p (SP 800-232 Table 5);
// Ascon-p[r] uses the last r of them.
var roundConstants = [16]uint64{
	0x3c, 0x2d, 0x1e, 0x0f, 0xf0, 0xe1, 0xd2, 0xc3,
	0xb4, 0xa5, 0x96, 0x87, 0x78, 0x69, 0x5a, 0x4b,
}

// permute applies Ascon-p[rounds] (SP 800-232 §3): constant addition, the
// 5-bit S-box in bitsliced form, and the linear diffusion layer. The S-box
// instruction sequence is the designers' (Ascon v1.2 specification, Fig. 5).
func permute(s *state, rounds int) {
	x0, x1, x2, x3, x4 := s[0], s[1], s[2], s[3], s[4]
	for _, c := range roundConstants[16-rounds:] {
		// pC: constant addition.
		x2 ^= c
		// pS: substitution layer.
		x0 ^= x4
		x4 ^= x3
		x2 ^= x1
		t0 := ^x0 & x1
		t1 := ^x1 & x2
		t2 := ^x2 & x3
		t3 := ^x3 & x4
		t4 := ^x4 & x0
		x0 ^= t1
		x1 ^= t2
		x2 ^= t3
		x3 ^= t4
		x4 ^= t0
		x1 ^= x0
		x0 ^= x4
		x3 ^= x2
		x2 = ^x2
		// pL: linear diffusion layer, Σ_i(x) = x ⊕ (x ⋙ r1) ⊕ (x ⋙ r2).
		x0 ^= bits.RotateLeft64(x0, -19) ^ bits.RotateLeft64(x0, -28)
		x1 ^= bits.RotateLeft64(x1, -61) ^ bits.RotateLeft64(x1, -39)
		x2 ^= bits.RotateLeft64(x2, -1) ^ bits.RotateLeft64(x2, -6)
		x3 ^= bits.RotateLeft64(x3, -10) ^ bits.RotateLeft64(x3, -17)
		x4 ^= bits.RotateLeft64(x4, -7) ^ bits.RotateLeft64(x4, -41)
	}
	s[0], s[1], s[2], s[3], s[4] = x0, x1, x2, x3, x4
}

// sliceForAppend extends in by n bytes, reusing its capacity when it can, and
// returns the whole slice and the n new bytes (the idiom of crypto/cipher).
func sliceForAppend(in []byte, n int) (head, tail []byte) {
	if total := len(in) + n; cap(in) >= total {
		head = in[:total]
	} else {
		head = make([]byte, total)
		copy(head, in)
	}
	tail = head[len(in):]
	return head, tail
}
