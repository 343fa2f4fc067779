package tiger

import (
	"encoding/binary"
	"sync"
)

// sboxes are Tiger's four 8×64-bit S-boxes t1..t4.
type sboxes [4][256]uint64

// tables returns the S-boxes, generated on first use.
var tables = sync.OnceValue(generateSboxes)

// even and odd are the two halves of a Tiger round (the reference
// implementation's round macro): the even bytes of c index the S-boxes whose
// sum is subtracted from a, the odd bytes those added to b.
func (t *sboxes) even(c uint64) uint64 {
	return t[0][byte(c)] ^ t[1][byte(c>>16)] ^ t[2][byte(c>>32)] ^ t[3][byte(c>>48)]
}

func (t *sboxes) odd(c uint64) uint64 {
	return t[3][byte(c>>8)] ^ t[2][byte(c>>24)] ^ t[1][byte(c>>40)] ^ t[0][byte(c>>56)]
}

// pass is eight rounds. Round(a, b, c, x) is
//
//	c ^= x; a -= even(c); b += odd(c); b *= mul
//
// and the rounds rotate the roles: (a,b,c), (b,c,a), (c,a,b), (a,b,c), ...
// Written out so that even and odd inline.
func (t *sboxes) pass(a, b, c uint64, x *[8]uint64, mul uint64) (uint64, uint64, uint64) {
	c ^= x[0]
	a -= t.even(c)
	b = (b + t.odd(c)) * mul
	a ^= x[1]
	b -= t.even(a)
	c = (c + t.odd(a)) * mul
	b ^= x[2]
	c -= t.even(b)
	a = (a + t.odd(b)) * mul
	c ^= x[3]
	a -= t.even(c)
	b = (b + t.odd(c)) * mul
	a ^= x[4]
	b -= t.even(a)
	c = (c + t.odd(a)) * mul
	b ^= x[5]
	c -= t.even(b)
	a = (a + t.odd(b)) * mul
	c ^= x[6]
	a -= t.even(c)
	b = (b + t.odd(c)) * mul
	a ^= x[7]
	b -= t.even(a)
	c = (c + t.odd(a)) * mul
	return a, b, c
}

// keySchedule mixes the eight message words between passes; the constants
// are the reference implementation's.
func keySchedule(x *[8]uint64) {
	x[0] -= x[7] ^ 0xA5A5A5A5A5A5A5A5
	x[1] ^= x[0]
	x[2] += x[1]
	x[3] -= x[2] ^ (^x[1] << 19)
	x[4] ^= x[3]
	x[5] += x[4]
	x[6] -= x[5] ^ (^x[4] >> 23)
	x[7] ^= x[6]
	x[0] += x[7]
	x[1] -= x[0] ^ (^x[7] << 19)
	x[2] ^= x[1]
	x[3] += x[2]
	x[4] -= x[3] ^ (^x[2] >> 23)
	x[5] ^= x[4]
	x[6] += x[5]
	x[7] -= x[6] ^ 0x0123456789ABCDEF
}

// compress is the Tiger compression function: three passes (multipliers 5,
// 7, 9) separated by the key schedule, then the feedforward.
func (t *sboxes) compress(s *[3]uint64, block []byte) {
	var x [8]uint64
	for i := range x {
		x[i] = binary.LittleEndian.Uint64(block[8*i:])
	}
	a, b, c := s[0], s[1], s[2]
	a, b, c = t.pass(a, b, c, &x, 5)
	keySchedule(&x)
	c, a, b = t.pass(c, a, b, &x, 7)
	keySchedule(&x)
	b, c, a = t.pass(b, c, a, &x, 9)
	s[0] ^= a
	s[1] = b - s[1]
	s[2] += c
}

// sboxSeed is the 64-byte message the authors' S-box generator compresses.
const sboxSeed = "Tiger - A Fast New Hash Function, by Ross Anderson and Eli Biham"

// generateSboxes builds t1..t4 the way the Tiger paper's authors generated
// them (the "S boxes generation" of the reference code): start with every
// byte column of entry i equal to i, then for 5 passes over the 256 rows of
// each of the four boxes, compress sboxSeed into a running state every third
// step and use the state's bytes to pick, per column, the row to swap with.
// The compression uses the boxes as they are being generated. Tests check
// the result against the authors' published table entries and test vectors.
func generateSboxes() *sboxes {
	var t sboxes
	for box := range t {
		for i := range t[box] {
			t[box][i] = uint64(i) * 0x0101010101010101
		}
	}
	var block [BlockSize]byte
	copy(block[:], sboxSeed)
	state := initialState
	abc := 2
	for range 5 {
		for i := range 256 {
			for box := range t {
				abc++
				if abc == 3 {
					abc = 0
					t.compress(&state, block[:])
				}
				for col := range 8 {
					shift := uint(8 * col)
					j := byte(state[abc] >> shift)
					mask := uint64(0xFF) << shift
					vi, vj := t[box][i]&mask, t[box][j]&mask
					t[box][i] = t[box][i]&^mask | vj
					t[box][j] = t[box][j]&^mask | vi
				}
			}
		}
	}
	return &t
}
