// Package idea implements the International Data Encryption Algorithm of
// Xuejia Lai and James L. Massey ("A Proposal for a New Block Encryption
// Standard", EUROCRYPT '90; "Markov Ciphers and Differential Cryptanalysis",
// EUROCRYPT '91, which gave the final form first called IPES), as RFC 3058
// §2 summarises it for CMS.
//
// IDEA encrypts 64-bit blocks, seen as four big-endian 16-bit words, under a
// 128-bit key in 8 rounds plus an output transformation. It mixes three
// incompatible group operations on 16-bit words: XOR, addition modulo 2^16
// and multiplication modulo 2^16+1 (a prime), in which the word 0 stands for
// 2^16.
//
// No maintained Go module provides IDEA; it is here because constrained-device
// studies measured it (PGP 2 used it). This implementation follows the
// specification directly and is not constant-time (the multiplication
// branches on zero operands): it is for measurement, not for protecting data.
// Its 64-bit block makes it unsuitable for new designs (Sweet32).
package idea

import (
	"crypto/cipher"
	"encoding/binary"
	"strconv"
)

// BlockSize is the IDEA block size in bytes (64 bits).
const BlockSize = 8

// KeySize is the IDEA key size in bytes (128 bits).
const KeySize = 16

// rounds is the number of full rounds; each uses 6 subkeys and the output
// transformation 4 more, so a key expands to 8*6+4 = 52 subkeys.
const (
	rounds   = 8
	subkeys  = rounds*6 + 4
	keyShift = 25 // the 128-bit key rotates left 25 bits between batches of 8 subkeys
)

// KeySizeError is returned for a key that is not 16 bytes.
type KeySizeError int

func (k KeySizeError) Error() string {
	return "idea: invalid key size " + strconv.Itoa(int(k)) + " bytes (IDEA keys are 16 bytes)"
}

// Cipher is an IDEA key schedule: the encryption subkeys and the decryption
// subkeys derived from them.
type Cipher struct {
	enc, dec [subkeys]uint16
}

var _ cipher.Block = (*Cipher)(nil)

// NewCipher expands a 16-byte key into an IDEA cipher.
func NewCipher(key []byte) (*Cipher, error) {
	if len(key) != KeySize {
		return nil, KeySizeError(len(key))
	}
	c := new(Cipher)
	expandKey(&c.enc, key)
	invertKey(&c.dec, &c.enc)
	return c, nil
}

// BlockSize returns the IDEA block size, 8 bytes.
func (c *Cipher) BlockSize() int { return BlockSize }

// Encrypt encrypts the first block of src into dst.
func (c *Cipher) Encrypt(dst, src []byte) { crypt(&c.enc, dst, src) }

// Decrypt decrypts the first block of src into dst. IDEA decrypts with the
// encryption procedure and the inverted subkeys.
func (c *Cipher) Decrypt(dst, src []byte) { crypt(&c.dec, dst, src) }

// expandKey derives the 52 encryption subkeys: the key's eight 16-bit words,
// then the eight words of the key rotated left 25 bits, and so on (Lai &
// Massey; RFC 3058 §2).
func expandKey(z *[subkeys]uint16, key []byte) {
	hi := binary.BigEndian.Uint64(key[0:8])
	lo := binary.BigEndian.Uint64(key[8:16])
	for i := 0; i < subkeys; i += 8 {
		for j := 0; j < 8 && i+j < subkeys; j++ {
			// Word j of the 128-bit value hi||lo, most significant first.
			if j < 4 {
				z[i+j] = uint16(hi >> (48 - 16*j))
			} else {
				z[i+j] = uint16(lo >> (48 - 16*(j-4)))
			}
		}
		hi, lo = hi<<keyShift|lo>>(64-keyShift), lo<<keyShift|hi>>(64-keyShift)
	}
}

// invertKey derives the decryption subkeys: the encryption subkeys in reverse
// round order, with the multiplicative and additive ones inverted and, for
// the inner rounds, the two additive ones swapped (because crypt swaps the
// middle words between rounds but not after the last).
func invertKey(dk, ek *[subkeys]uint16) {
	for r := 0; r <= rounds; r++ {
		// Decryption round r undoes encryption round rounds-r; round
		// "rounds" of encryption is the output transformation.
		e := 6 * (rounds - r)
		d := 6 * r
		dk[d] = mulInv(ek[e])
		if r == 0 || r == rounds {
			dk[d+1] = -ek[e+1]
			dk[d+2] = -ek[e+2]
		} else {
			dk[d+1] = -ek[e+2]
			dk[d+2] = -ek[e+1]
		}
		dk[d+3] = mulInv(ek[e+3])
		if r < rounds {
			// The MA-structure subkeys are used as they are, from the
			// encryption round before.
			dk[d+4] = ek[e-2]
			dk[d+5] = ek[e-1]
		}
	}
}

// crypt runs the 8 rounds and the output transformation with subkeys z.
func crypt(z *[subkeys]uint16, dst, src []byte) {
	if len(src) < BlockSize || len(dst) < BlockSize {
		panic("idea: input or output not a full block")
	}
	x1 := binary.BigEndian.Uint16(src[0:2])
	x2 := binary.BigEndian.Uint16(src[2:4])
	x3 := binary.BigEndian.Uint16(src[4:6])
	x4 := binary.BigEndian.Uint16(src[6:8])
	for r := 0; r < rounds; r++ {
		k := z[6*r : 6*r+6 : 6*r+6]
		x1 = mul(x1, k[0])
		x2 += k[1]
		x3 += k[2]
		x4 = mul(x4, k[3])
		// The multiplication-addition (MA) structure.
		t0 := mul(x1^x3, k[4])
		t1 := mul((x2^x4)+t0, k[5])
		t0 += t1
		x1 ^= t1
		x4 ^= t0
		// The middle words cross over: the new second word is the old
		// third, and vice versa.
		x2, x3 = x3^t1, x2^t0
	}
	// The output transformation undoes the last round's crossover.
	k := z[6*rounds : subkeys : subkeys]
	binary.BigEndian.PutUint16(dst[0:2], mul(x1, k[0]))
	binary.BigEndian.PutUint16(dst[2:4], x3+k[1])
	binary.BigEndian.PutUint16(dst[4:6], x2+k[2])
	binary.BigEndian.PutUint16(dst[6:8], mul(x4, k[3]))
}

// mul multiplies modulo 2^16+1, where the word 0 stands for 2^16.
func mul(a, b uint16) uint16 {
	switch {
	case a == 0:
		return 1 - b // 2^16·b ≡ -b (mod 2^16+1)
	case b == 0:
		return 1 - a
	}
	// For p = hi·2^16 + lo, p ≡ lo - hi (mod 2^16+1); add the modulus
	// back when that went negative.
	p := uint32(a) * uint32(b)
	lo, hi := uint16(p), uint16(p>>16)
	r := lo - hi
	if lo < hi {
		r++
	}
	return r
}

// mulInv is the inverse of x under mul: x^(p-2) mod p with p = 2^16+1
// (Fermat), with 0 standing for 2^16 (which is its own inverse, -1).
func mulInv(x uint16) uint16 {
	const p = 1<<16 + 1
	base := uint64(x)
	if base == 0 {
		base = 1 << 16
	}
	r := uint64(1)
	for e := uint64(p - 2); e > 0; e >>= 1 {
		if e&1 == 1 {
			r = r * base % p
		}
		base = base * base % p
	}
	return uint16(r) // 2^16 becomes 0
}
