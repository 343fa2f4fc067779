// Package tiger implements the Tiger and Tiger2 hash functions of Ross
// Anderson and Eli Biham, "Tiger: A Fast New Hash Function", Fast Software
// Encryption 3, Cambridge, 1996 (https://www.cs.technion.ac.il/~biham/Reports/Tiger/).
//
// Tiger is a Merkle–Damgård hash over 64-byte blocks with a 192-bit state
// of three 64-bit words, little-endian throughout. Tiger pads like MD4 but
// with the byte 0x01; Tiger2, which the authors added later, pads with 0x80
// like MD4, MD5 and SHA-1. The two are otherwise identical.
//
// Tiger is not standardised and has had little analysis beyond reduced-round
// attacks (Kelsey–Lucks FSE 2006, Mendel et al.); it is here because
// constrained-device studies measured it, not for new designs.
package tiger

import (
	"encoding/binary"
	"hash"
)

// Size is the Tiger digest size in bytes (192 bits).
const Size = 24

// BlockSize is the Tiger block size in bytes.
const BlockSize = 64

// Padding bytes: the first byte appended to the message.
const (
	padTiger  = 0x01 // the original Tiger (reference implementation, 1996)
	padTiger2 = 0x80 // Tiger2, MD4-style
)

// New returns a Tiger hash (192-bit output, padding byte 0x01).
func New() hash.Hash { return newDigest(padTiger) }

// New2 returns a Tiger2 hash (192-bit output, padding byte 0x80).
func New2() hash.Hash { return newDigest(padTiger2) }

// Sum returns the Tiger digest of data.
func Sum(data []byte) [Size]byte {
	d := newDigest(padTiger)
	d.Write(data)
	var out [Size]byte
	d.checkSum(&out)
	return out
}

// initialState is the chaining value before the first block (the
// reference implementation's a, b, c).
var initialState = [3]uint64{0x0123456789ABCDEF, 0xFEDCBA9876543210, 0xF096A5B4C3B2E187}

type digest struct {
	s   [3]uint64
	buf [BlockSize]byte
	nx  int    // bytes buffered in buf
	len uint64 // message bytes written
	pad byte   // padTiger or padTiger2
	t   *sboxes
}

func newDigest(pad byte) *digest {
	d := &digest{pad: pad, t: tables()}
	d.Reset()
	return d
}

func (d *digest) Reset() {
	d.s = initialState
	d.nx = 0
	d.len = 0
}

func (d *digest) Size() int      { return Size }
func (d *digest) BlockSize() int { return BlockSize }

func (d *digest) Write(p []byte) (int, error) {
	n := len(p)
	d.len += uint64(n)
	if d.nx > 0 {
		c := copy(d.buf[d.nx:], p)
		d.nx += c
		p = p[c:]
		if d.nx < BlockSize {
			return n, nil
		}
		d.t.compress(&d.s, d.buf[:])
		d.nx = 0
	}
	for len(p) >= BlockSize {
		d.t.compress(&d.s, p[:BlockSize])
		p = p[BlockSize:]
	}
	d.nx = copy(d.buf[:], p)
	return n, nil
}

// Sum appends the digest to b without changing the state.
func (d *digest) Sum(b []byte) []byte {
	c := *d
	var out [Size]byte
	c.checkSum(&out)
	return append(b, out[:]...)
}

// checkSum pads the message and writes the digest: the pad byte, zeros up
// to 56 bytes mod 64, then the message length in bits as a little-endian
// 64-bit word; the digest is a, b, c as little-endian words.
func (d *digest) checkSum(out *[Size]byte) {
	bits := d.len << 3
	var tail [BlockSize + 8]byte
	tail[0] = d.pad
	n := 56 - d.nx // pad to 56 mod 64
	if d.nx >= 56 {
		n += BlockSize
	}
	binary.LittleEndian.PutUint64(tail[n:], bits)
	d.Write(tail[:n+8])
	for i, w := range d.s {
		binary.LittleEndian.PutUint64(out[8*i:], w)
	}
}
