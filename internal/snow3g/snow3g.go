// Package snow3g implements the SNOW 3G stream cipher and the two 3GPP
// algorithms built on it: UEA2 (f8, confidentiality; 128-EEA1 and 128-NEA1
// in LTE and 5G) and UIA2 (f9, integrity).
//
// The definitions are ETSI/SAGE, "Specification of the 3GPP Confidentiality
// and Integrity Algorithms UEA2 & UIA2": Document 1 (UEA2 and UIA2) and
// Document 2 (SNOW 3G, v1.1). The tests check every test set of Document 3
// (Implementors' Test Data, v1.1): the bare generator (§3, up to z2500),
// UEA2 (§4) and UIA2 (§5). No maintained Go module implements SNOW 3G,
// which is why it is written here.
//
// Keystream words are output most significant byte first, the order the
// test data prints them and the order f8 XORs them onto the data.
package snow3g

import (
	"encoding/binary"
	"math/bits"
)

// The tables below are computed once from their definitions in Document 2
// rather than typed in; the tests compare them with the specification's
// printed values.
var (
	// s1Table[i][x] is the contribution of input byte i (0 = most
	// significant) with value x to the S-box S1: S1(w) is the XOR of the
	// four contributions.
	s1Table [4][256]uint32
	// s2Table is the same for S2.
	s2Table [4][256]uint32
	// mulAlpha[c] and divAlpha[c] are the LFSR feedback functions MULα and
	// DIVα (Document 2 §3): multiplication and division of a
	// byte by the root α of the LFSR's feedback polynomial.
	mulAlpha, divAlpha [256]uint32
)

func init() {
	for x := range 256 {
		c := byte(x)
		s1Table[0][x] = mixColumn(sboxSR(c), 0x1b)
		s2Table[0][x] = mixColumn(sboxSQ(c), 0x69)
		for i := 1; i < 4; i++ {
			// The circulant moves one byte right per input position.
			s1Table[i][x] = bits.RotateLeft32(s1Table[0][x], -8*i)
			s2Table[i][x] = bits.RotateLeft32(s2Table[0][x], -8*i)
		}
		// Document 2 §3: MULα(c) = MULxPOW(c, 23, 0xA9) ‖
		// MULxPOW(c, 245, 0xA9) ‖ MULxPOW(c, 48, 0xA9) ‖ MULxPOW(c, 239, 0xA9).
		mulAlpha[x] = word(mulxPow(c, 23, 0xa9), mulxPow(c, 245, 0xa9), mulxPow(c, 48, 0xa9), mulxPow(c, 239, 0xa9))
		// and DIVα(c) = MULxPOW(c, 16, 0xA9) ‖ MULxPOW(c, 39, 0xA9) ‖
		// MULxPOW(c, 6, 0xA9) ‖ MULxPOW(c, 64, 0xA9).
		divAlpha[x] = word(mulxPow(c, 16, 0xa9), mulxPow(c, 39, 0xa9), mulxPow(c, 6, 0xa9), mulxPow(c, 64, 0xa9))
	}
}

// word joins four bytes, b0 the most significant.
func word(b0, b1, b2, b3 byte) uint32 {
	return uint32(b0)<<24 | uint32(b1)<<16 | uint32(b2)<<8 | uint32(b3)
}

// mulx is MULx(V, c) of Document 2 §3: V times x in GF(2^8), c being
// the low byte of the field polynomial.
func mulx(v, c byte) byte {
	if v&0x80 != 0 {
		return v<<1 ^ c
	}
	return v << 1
}

// mulxPow is MULxPOW(V, i, c) of Document 2 §3: V times x^i.
func mulxPow(v byte, i int, c byte) byte {
	for ; i > 0; i-- {
		v = mulx(v, c)
	}
	return v
}

// gfMul8 multiplies a and b in GF(2^8) with field polynomial x^8 + poly.
func gfMul8(a, b, poly byte) byte {
	var p byte
	for ; b != 0; b >>= 1 {
		if b&1 != 0 {
			p ^= a
		}
		a = mulx(a, poly)
	}
	return p
}

// gfPow8 raises x to the power e in the same field.
func gfPow8(x byte, e int, poly byte) byte {
	r := byte(1)
	for ; e > 0; e-- {
		r = gfMul8(r, x, poly)
	}
	return r
}

// sboxSR is the Rijndael S-box SR (Document 2 §3, FIPS 197 §5.1.1):
// the inverse in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (0 maps to 0),
// then the affine map b ⊕ (b⋘1) ⊕ (b⋘2) ⊕ (b⋘3) ⊕ (b⋘4) ⊕ 0x63.
func sboxSR(x byte) byte {
	b := gfPow8(x, 254, 0x1b) // x^254 = x^-1, and 0 for 0
	return b ^ bits.RotateLeft8(b, 1) ^ bits.RotateLeft8(b, 2) ^ bits.RotateLeft8(b, 3) ^ bits.RotateLeft8(b, 4) ^ 0x63
}

// sboxSQ is SNOW 3G's S-box SQ (Document 2 §3): the Dickson polynomial
// g49(x) = x + x^9 + x^13 + x^15 + x^33 + x^41 + x^45 + x^47 + x^49 over
// GF(2^8) modulo x^8 + x^6 + x^5 + x^3 + 1, XOR 0x25.
func sboxSQ(x byte) byte {
	var y byte
	for _, e := range [...]int{1, 9, 13, 15, 33, 41, 45, 47, 49} {
		y ^= gfPow8(x, e, 0x69)
	}
	return y ^ 0x25
}

// mixColumn spreads an S-box output s over the output word as input byte w0
// does in S1 and S2 (Document 2 §3). Writing w_i for the S-box output of
// input byte i (w0 the most significant) and 2·w for MULx(w, c), both
// boxes mix the four bytes by the circulant
//
//	r0 = 2·w0 ⊕ w1 ⊕ w2 ⊕ 3·w3    r1 = 3·w0 ⊕ 2·w1 ⊕ w2 ⊕ w3
//	r2 = w0 ⊕ 3·w1 ⊕ 2·w2 ⊕ w3    r3 = w0 ⊕ w1 ⊕ 3·w2 ⊕ 2·w3
//
// so w0 = s contributes (m, m⊕s, s, s) to (r0, r1, r2, r3), m = 2·s,
// and r0 is the most significant output byte. S1 doubles in
// Rijndael's field (c = 0x1B), S2 in SQ's (c = 0x69).
func mixColumn(s, c byte) uint32 {
	m := mulx(s, c)
	return word(m, m^s, s, s)
}

// s1Box is the S-box S1: SR on each byte, then the circulant.
func s1Box(w uint32) uint32 {
	return s1Table[0][byte(w>>24)] ^ s1Table[1][byte(w>>16)] ^ s1Table[2][byte(w>>8)] ^ s1Table[3][byte(w)]
}

// s2Box is the S-box S2: SQ on each byte, then the circulant.
func s2Box(w uint32) uint32 {
	return s2Table[0][byte(w>>24)] ^ s2Table[1][byte(w>>16)] ^ s2Table[2][byte(w>>8)] ^ s2Table[3][byte(w)]
}

// Cipher is a SNOW 3G keystream generator. It implements cipher.Stream:
// XORKeyStream XORs the keystream words z1, z2, ..., each most significant
// byte first, onto the data, and a call may stop inside a word (the next
// call goes on from there).
type Cipher struct {
	// lfsr holds s0..s15 as a ring: s_i is lfsr[(head+i)%16], so clocking
	// the LFSR overwrites one entry instead of shifting fifteen.
	lfsr       [16]uint32
	head       int
	r1, r2, r3 uint32 // the FSM registers

	// ks holds the keystream word a previous XORKeyStream call stopped
	// in; its last n bytes are still unused.
	ks [4]byte
	n  int
}

// New returns a generator initialised with the key words k0..k3 and IV
// words IV0..IV3 as Document 2 §4.1 numbers them (Document 3 §3 prints each
// test set's key and IV in that order). UEA2 and UIA2 derive these words
// from their inputs: see NewUEA2 and NewUIA2.
func New(k, iv [4]uint32) *Cipher {
	c := new(Cipher)
	c.init(k, iv)
	return c
}

func (c *Cipher) init(k, iv [4]uint32) {
	c.initMode(k, iv)
	// The first keystream-mode clock, whose FSM output is discarded.
	c.clockFSM()
	c.clockLFSR(0)
}

// initMode loads key and IV and runs the 32 clocks of initialisation mode,
// which feed the FSM output back into the LFSR (Document 2 §4.1).
func (c *Cipher) initMode(k, iv [4]uint32) {
	const ones = 0xffffffff // "1" in Document 2 §4.1: the all-ones word
	c.lfsr = [16]uint32{
		k[0] ^ ones, k[1] ^ ones, k[2] ^ ones, k[3] ^ ones, // s0..s3
		k[0], k[1], k[2], k[3], // s4..s7
		k[0] ^ ones, k[1] ^ ones ^ iv[3], k[2] ^ ones ^ iv[2], k[3] ^ ones, // s8..s11
		k[0] ^ iv[1], k[1], k[2], k[3] ^ iv[0], // s12..s15
	}
	c.head = 0
	c.r1, c.r2, c.r3 = 0, 0, 0
	c.n = 0
	for range 32 {
		c.clockLFSR(c.clockFSM())
	}
}

// s returns LFSR stage s_i.
func (c *Cipher) s(i int) uint32 { return c.lfsr[(c.head+i)&15] }

// clockFSM clocks the finite state machine and returns its output F
// (Document 2 §3).
func (c *Cipher) clockFSM() uint32 {
	f := (c.s(15) + c.r1) ^ c.r2
	r := c.r2 + (c.r3 ^ c.s(5))
	c.r3 = s2Box(c.r2)
	c.r2 = s1Box(c.r1)
	c.r1 = r
	return f
}

// clockLFSR shifts the LFSR once: the new s15 is
// (s0 ≪ 8) ⊕ MULα(s0 ≫ 24) ⊕ s2 ⊕ (s11 ≫ 8) ⊕ DIVα(s11 & 0xff) ⊕ f, with f
// the FSM output in initialisation mode and 0 in keystream mode (Document 2
// §3).
func (c *Cipher) clockLFSR(f uint32) {
	s0, s2, s11 := c.s(0), c.s(2), c.s(11)
	v := s0<<8 ^ mulAlpha[s0>>24] ^ s2 ^ s11>>8 ^ divAlpha[s11&0xff] ^ f
	c.lfsr[c.head] = v // s0's slot becomes the new s15
	c.head = (c.head + 1) & 15
}

// Word returns the next keystream word z_t = F ⊕ s0 (Document 2 §4.2). It
// must not be mixed with XORKeyStream calls that stop inside a word.
func (c *Cipher) Word() uint32 {
	z := c.clockFSM() ^ c.s(0)
	c.clockLFSR(0)
	return z
}

// XORKeyStream XORs the next len(src) keystream bytes onto src into dst.
// dst and src may be the same slice, but must not overlap otherwise.
func (c *Cipher) XORKeyStream(dst, src []byte) {
	if len(dst) < len(src) {
		panic("snow3g: output smaller than input")
	}
	dst = dst[:len(src)]
	for c.n > 0 && len(src) > 0 {
		dst[0] = src[0] ^ c.ks[4-c.n]
		c.n--
		dst, src = dst[1:], src[1:]
	}
	if whole := len(src) &^ 3; whole > 0 {
		c.xorWords(dst[:whole], src[:whole])
		dst, src = dst[whole:], src[whole:]
	}
	if len(src) > 0 {
		binary.BigEndian.PutUint32(c.ks[:], c.Word())
		for i := range src {
			dst[i] = src[i] ^ c.ks[i]
		}
		c.n = 4 - len(src)
	}
}

// xorWords is XORKeyStream for whole words: Word's clocking, with the
// state in local variables (Word does not inline, and a call per word
// costs more than the word).
func (c *Cipher) xorWords(dst, src []byte) {
	r1, r2, r3, h := c.r1, c.r2, c.r3, c.head
	l := &c.lfsr
	for len(src) >= 4 && len(dst) >= 4 {
		s0, s2, s5, s11, s15 := l[h], l[(h+2)&15], l[(h+5)&15], l[(h+11)&15], l[(h+15)&15]
		z := (s15 + r1) ^ r2 ^ s0 // F ⊕ s0
		r := r2 + (r3 ^ s5)
		r3 = s2Box(r2)
		r2 = s1Box(r1)
		r1 = r
		l[h] = s0<<8 ^ mulAlpha[s0>>24] ^ s2 ^ s11>>8 ^ divAlpha[s11&0xff]
		h = (h + 1) & 15
		binary.BigEndian.PutUint32(dst, binary.BigEndian.Uint32(src)^z)
		dst, src = dst[4:], src[4:]
	}
	c.r1, c.r2, c.r3, c.head = r1, r2, r3, h
}
