package snow3g

import (
	"encoding/binary"
	"fmt"
)

// KeySize is the size in bytes of the UEA2 and UIA2 keys CK and IK.
const KeySize = 16

// keyWords splits a 128-bit key into SNOW 3G's k0..k3 as UEA2 and UIA2 do
// (Document 1 §3 and §4): K3 is the first 32 bits of the key and K0
// the last, each most significant bit first.
func keyWords(key []byte) [4]uint32 {
	return [4]uint32{
		binary.BigEndian.Uint32(key[12:]),
		binary.BigEndian.Uint32(key[8:]),
		binary.BigEndian.Uint32(key[4:]),
		binary.BigEndian.Uint32(key[0:]),
	}
}

func checkKey(key []byte) error {
	if len(key) != KeySize {
		return fmt.Errorf("snow3g: key is %d bytes, want %d (128 bits)", len(key), KeySize)
	}
	return nil
}

func checkDirection(direction uint8) error {
	if direction > 1 {
		return fmt.Errorf("snow3g: DIRECTION is %d, want 0 (uplink) or 1 (downlink)", direction)
	}
	return nil
}

// NewUEA2 returns the keystream generator of UEA2, the f8 confidentiality
// algorithm (Document 1 §3), for cipher key ck, the 32-bit COUNT-C, the
// 5-bit BEARER and the 1-bit DIRECTION. Its IV words are
// IV3 = IV1 = COUNT-C and IV2 = IV0 = BEARER ‖ DIRECTION ‖ 0^26.
// XORKeyStream on it encrypts and decrypts whole bytes; F8 handles a LENGTH
// that is not a multiple of 8.
func NewUEA2(ck []byte, count uint32, bearer, direction uint8) (*Cipher, error) {
	if err := checkKey(ck); err != nil {
		return nil, err
	}
	if bearer > 31 {
		return nil, fmt.Errorf("snow3g: BEARER is %d, want a 5-bit value (0-31)", bearer)
	}
	if err := checkDirection(direction); err != nil {
		return nil, err
	}
	bd := uint32(bearer)<<27 | uint32(direction)<<26
	return New(keyWords(ck), [4]uint32{bd, count, bd, count}), nil
}

// F8 is UEA2 as Document 1 §3 defines it: it encrypts (or decrypts) the
// first length bits of data in place. Bits of the last byte past length are
// cleared, as Document 3's test data prints them.
func F8(ck []byte, count uint32, bearer, direction uint8, data []byte, length int) error {
	if length < 0 || length > 8*len(data) {
		return fmt.Errorf("snow3g: LENGTH %d bits does not fit the %d-byte data", length, len(data))
	}
	c, err := NewUEA2(ck, count, bearer, direction)
	if err != nil {
		return err
	}
	n := (length + 7) / 8
	c.XORKeyStream(data[:n], data[:n])
	if r := length % 8; r != 0 {
		data[n-1] &= 0xff << (8 - r)
	}
	return nil
}
