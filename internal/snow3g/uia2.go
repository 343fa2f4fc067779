package snow3g

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// MACSize is the size in bytes of the UIA2 MAC-I.
const MACSize = 4

// MAC computes UIA2, the f9 integrity algorithm (Document 1 §4), for one
// key IK, COUNT-I, FRESH and DIRECTION. It implements hash.Hash: Sum
// returns the 32-bit MAC-I of the bytes written so far.
//
// UIA2 evaluates the message, cut into 64-bit blocks M0, M1, ..., as a
// polynomial at the point P = z1 ‖ z2 in GF(2^64):
// EVAL = (...((M0·P ⊕ M1)·P ⊕ M2)...)·P, then MAC-I is the high half of
// (EVAL ⊕ LENGTH)·Q, with Q = z3 ‖ z4, XOR z5, where z1..z5 are the first
// keystream words of SNOW 3G under IK and an IV built from the other inputs.
type MAC struct {
	p, pRev uint64 // P and bits.Reverse64(P) (see gfMul)
	q, qRev uint64 // Q likewise
	z5      uint32

	eval   uint64  // EVAL over the whole blocks written so far
	buf    [8]byte // the partial block
	nbuf   int
	length uint64 // bits written
}

// NewUIA2 returns UIA2 for integrity key ik and the 32-bit COUNT-I, the
// 32-bit FRESH and the 1-bit DIRECTION. Its SNOW 3G IV words are
// IV3 = COUNT-I, IV2 = FRESH, IV1 = COUNT-I ⊕ DIRECTION·2^31 and
// IV0 = FRESH ⊕ DIRECTION·2^15 (Document 1 §4).
func NewUIA2(ik []byte, count, fresh uint32, direction uint8) (*MAC, error) {
	if err := checkKey(ik); err != nil {
		return nil, err
	}
	if err := checkDirection(direction); err != nil {
		return nil, err
	}
	d := uint32(direction)
	g := New(keyWords(ik), [4]uint32{fresh ^ d<<15, count ^ d<<31, fresh, count})
	z1, z2, z3, z4, z5 := g.Word(), g.Word(), g.Word(), g.Word(), g.Word()
	m := &MAC{
		p:  uint64(z1)<<32 | uint64(z2),
		q:  uint64(z3)<<32 | uint64(z4),
		z5: z5,
	}
	m.pRev, m.qRev = bits.Reverse64(m.p), bits.Reverse64(m.q)
	return m, nil
}

// Size returns MACSize.
func (m *MAC) Size() int { return MACSize }

// BlockSize returns 8: UIA2 works on 64-bit blocks.
func (m *MAC) BlockSize() int { return 8 }

// Reset forgets the bytes written; the key and IV stay.
func (m *MAC) Reset() {
	m.eval, m.nbuf, m.length = 0, 0, 0
}

// Write adds p to the message. It never fails.
func (m *MAC) Write(p []byte) (int, error) {
	n := len(p)
	m.length += 8 * uint64(n)
	if m.nbuf > 0 {
		k := copy(m.buf[m.nbuf:], p)
		m.nbuf += k
		p = p[k:]
		if m.nbuf < len(m.buf) {
			return n, nil
		}
		m.eval = gfMul(m.eval^binary.BigEndian.Uint64(m.buf[:]), m.p, m.pRev)
		m.nbuf = 0
	}
	for len(p) >= 8 {
		m.eval = gfMul(m.eval^binary.BigEndian.Uint64(p), m.p, m.pRev)
		p = p[8:]
	}
	m.nbuf = copy(m.buf[:], p)
	return n, nil
}

// Sum appends the MAC-I of the bytes written to b. The state is unchanged.
func (m *MAC) Sum(b []byte) []byte {
	return binary.BigEndian.AppendUint32(b, m.finish(0, 0))
}

// SumBits appends to b the MAC-I of the bytes written followed by the nbits
// most significant bits of last (0 ≤ nbits < 8): UIA2 of a message whose
// LENGTH is not a multiple of 8. The state is unchanged.
func (m *MAC) SumBits(b []byte, last byte, nbits int) []byte {
	if nbits < 0 || nbits > 7 {
		panic(fmt.Sprintf("snow3g: SumBits of %d bits, want 0 to 7", nbits))
	}
	return binary.BigEndian.AppendUint32(b, m.finish(last, nbits))
}

// finish computes MAC-I as Document 1 §4 does, without changing m.
func (m *MAC) finish(last byte, nbits int) uint32 {
	eval, length := m.eval, m.length
	if m.nbuf > 0 || nbits > 0 {
		// The last block, zero-padded: Document 1 pads M with zeros to a
		// multiple of 64 bits.
		var block [8]byte
		copy(block[:], m.buf[:m.nbuf])
		if nbits > 0 {
			block[m.nbuf] = last & (0xff << (8 - nbits))
			length += uint64(nbits)
		}
		eval = gfMul(eval^binary.BigEndian.Uint64(block[:]), m.p, m.pRev)
	}
	eval = gfMul(eval^length, m.q, m.qRev)
	return uint32(eval>>32) ^ m.z5
}

// F9 is UIA2 as Document 1 §4 defines it: the MAC-I of the first length
// bits of message.
func F9(ik []byte, count, fresh uint32, direction uint8, message []byte, length uint64) (uint32, error) {
	if length > 8*uint64(len(message)) {
		return 0, fmt.Errorf("snow3g: LENGTH %d bits does not fit the %d-byte message", length, len(message))
	}
	m, err := NewUIA2(ik, count, fresh, direction)
	if err != nil {
		return 0, err
	}
	whole := length / 8
	m.Write(message[:whole])
	var last byte
	if length%8 != 0 {
		last = message[whole]
	}
	return m.finish(last, int(length%8)), nil
}

// gfMul returns x·y in GF(2^64) = GF(2)[X]/(X^64 + X^4 + X^3 + X + 1), which
// is UIA2's MUL64(x, y, 0x1b) (Document 1 §4), bit i of a word being the
// coefficient of X^i. yRev is bits.Reverse64(y).
//
// It runs in constant time: the carry-less product comes from integer
// multiplications (clmulLow), not from tables indexed by secret data, and
// EVAL depends on the key.
func gfMul(x, y, yRev uint64) uint64 {
	lo := clmulLow(x, y)
	// The high half of the 127-bit product is the low half of the product
	// of the bit-reversed operands, reversed and shifted by one.
	hi := bits.Reverse64(clmulLow(bits.Reverse64(x), yRev)) >> 1
	// Reduce: hi·X^64 = hi·(X^4 + X^3 + X + 1). The bits that shifting hi
	// pushes past X^63 come back the same way once more; they are fewer
	// than four, so a second round cannot overflow.
	o := hi>>60 ^ hi>>61 ^ hi>>63
	return lo ^ hi ^ hi<<1 ^ hi<<3 ^ hi<<4 ^ o ^ o<<1 ^ o<<3 ^ o<<4
}

// clmulLow returns the low 64 bits of the carry-less product of x and y.
// Each operand is split into the bits at positions 0, 1, 2 and 3 mod 4;
// the integer product of two such parts has its wanted bits at one residue
// mod 4 and the carries, which never exceed 15 below bit 64, in the three
// residues between, which the final masks drop. This is T. Pornin's bmul64
// (BearSSL, src/hash/ghash_ctmul64.c).
func clmulLow(x, y uint64) uint64 {
	const m0, m1, m2, m3 = 0x1111111111111111, 0x2222222222222222, 0x4444444444444444, 0x8888888888888888
	x0, x1, x2, x3 := x&m0, x&m1, x&m2, x&m3
	y0, y1, y2, y3 := y&m0, y&m1, y&m2, y&m3
	z0 := x0*y0 ^ x1*y3 ^ x2*y2 ^ x3*y1
	z1 := x0*y1 ^ x1*y0 ^ x2*y3 ^ x3*y2
	z2 := x0*y2 ^ x1*y1 ^ x2*y0 ^ x3*y3
	z3 := x0*y3 ^ x1*y2 ^ x2*y1 ^ x3*y0
	return z0&m0 | z1&m1 | z2&m2 | z3&m3
}
