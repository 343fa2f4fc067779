// Package cmac implements the CMAC message authentication code of NIST
// SP 800-38B (OMAC1 of Iwata and Kurosawa) over a block cipher with a
// 128-bit block; with AES it is the AES-CMAC of RFC 4493.
//
// No module in cryptocost's dependencies exports CMAC (x/crypto does not
// have it; ProtonMail's EAX and gmsm's CCM keep theirs unexported).
package cmac

import (
	"crypto/cipher"
	"crypto/subtle"
	"fmt"
	"hash"
)

// BlockSize is the cipher block size CMAC supports, and the tag size.
const BlockSize = 16

// rb128 is R_128 of SP 800-38B §5.3: the low byte of the reduction
// polynomial x^128 + x^7 + x^2 + x + 1 used when doubling a subkey.
const rb128 = 0x87

type digest struct {
	c      cipher.Block
	k1, k2 [BlockSize]byte // subkeys (SP 800-38B §6.1)
	x      [BlockSize]byte // CBC-MAC chaining value
	buf    [BlockSize]byte // the last block, held back until Sum
	nbuf   int
	// tag is Sum's scratch block, kept here because a local array passed
	// to the cipher interface would escape to the heap on every Sum.
	tag [BlockSize]byte
}

// New returns a CMAC keyed by c, which must have a 128-bit block (AES).
// Its Sum is the full 128-bit tag; truncate it for shorter tags.
func New(c cipher.Block) (hash.Hash, error) {
	if c.BlockSize() != BlockSize {
		return nil, fmt.Errorf("cmac: cipher has a %d-byte block; this CMAC supports %d-byte blocks (AES)", c.BlockSize(), BlockSize)
	}
	d := &digest{c: c}
	// Subkeys: L = CIPH_K(0^128), K1 = dbl(L), K2 = dbl(K1).
	var l [BlockSize]byte
	c.Encrypt(l[:], l[:])
	d.k1 = double(l)
	d.k2 = double(d.k1)
	return d, nil
}

// double multiplies v by x in GF(2^128): shift left one bit and, if a bit
// fell off, reduce by R_128. Constant-time in the key-dependent bit.
func double(v [BlockSize]byte) [BlockSize]byte {
	var out [BlockSize]byte
	carry := v[0] >> 7
	for i := range BlockSize - 1 {
		out[i] = v[i]<<1 | v[i+1]>>7
	}
	out[BlockSize-1] = v[BlockSize-1]<<1 ^ (rb128 & -carry)
	return out
}

func (d *digest) Size() int      { return BlockSize }
func (d *digest) BlockSize() int { return BlockSize }

func (d *digest) Reset() {
	d.x = [BlockSize]byte{}
	d.nbuf = 0
}

// chain absorbs one block that is known not to be the last.
func (d *digest) chain(block []byte) {
	subtle.XORBytes(d.x[:], d.x[:], block)
	d.c.Encrypt(d.x[:], d.x[:])
}

func (d *digest) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		// A full buffered block is not the last one: more data follows.
		if d.nbuf == BlockSize {
			d.chain(d.buf[:])
			d.nbuf = 0
		}
		if d.nbuf == 0 {
			// Whole blocks straight from p, always keeping the final
			// (possibly whole) block back for Sum.
			for len(p) > BlockSize {
				d.chain(p[:BlockSize])
				p = p[BlockSize:]
			}
		}
		c := copy(d.buf[d.nbuf:], p)
		d.nbuf += c
		p = p[c:]
	}
	return n, nil
}

// Sum appends the tag to b without changing the state: the last block is
// XORed with K1 if whole, else padded with 10* and XORed with K2 (SP 800-38B
// §6.2 steps 3–4), then chained.
func (d *digest) Sum(b []byte) []byte {
	last := d.tag[:]
	if d.nbuf == BlockSize {
		subtle.XORBytes(last, d.buf[:], d.k1[:])
	} else {
		clear(last)
		copy(last, d.buf[:d.nbuf])
		last[d.nbuf] = 0x80
		subtle.XORBytes(last, last, d.k2[:])
	}
	subtle.XORBytes(last, last, d.x[:])
	d.c.Encrypt(last, last)
	return append(b, last...)
}
