// Package lms is the Leighton-Micali hash-based signature system, LMS and
// its hierarchical HSS (RFC 8554; NIST SP 800-208), with SHA-256 and n = m
// = 32: verification of any HSS signature of those parameter sets, and key
// generation and signing for a one-level HSS key, for cryptocost to time.
//
// Written here because no reachable Go module provides it; checked against
// RFC 8554 Appendix F's test case (scheme/testdata/lms) and by round trips.
// The private key is stateful: each leaf (one-time key) signs once. This
// package keeps the whole tree in memory and counts leaves; it does not
// persist state, so it is for measuring, not for signing firmware.
package lms

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
)

// Domain-separation constants, RFC 8554 §4.3 and §5.3.
const (
	dPBLC = 0x8080
	dMESG = 0x8181
	dLEAF = 0x8282
	dINTR = 0x8383
	n     = 32 // hash output bytes (SHA-256)
)

// OTSType is an LM-OTS parameter set (RFC 8554 Table 1).
type OTSType uint32

// Winternitz widths of the SHA-256/N32 LM-OTS types.
const (
	OTSW1 OTSType = 1
	OTSW2 OTSType = 2
	OTSW4 OTSType = 3
	OTSW8 OTSType = 4
)

type otsParams struct{ w, p, ls int }

// RFC 8554 Table 1: w, p (chains), ls (checksum left shift).
var otsTable = map[OTSType]otsParams{OTSW1: {1, 265, 7}, OTSW2: {2, 133, 6}, OTSW4: {4, 67, 4}, OTSW8: {8, 34, 0}}

// LMSType is an LMS parameter set (RFC 8554 Table 2): the tree height.
type LMSType uint32

// The SHA-256/M32 LMS types.
const (
	LMSH5  LMSType = 5
	LMSH10 LMSType = 6
	LMSH15 LMSType = 7
	LMSH20 LMSType = 8
	LMSH25 LMSType = 9
)

var heights = map[LMSType]int{LMSH5: 5, LMSH10: 10, LMSH15: 15, LMSH20: 20, LMSH25: 25}

// Height returns the tree height of t, 0 if t is not a SHA-256/M32 type.
func (t LMSType) Height() int { return heights[t] }

// SignatureSize is the size of a one-level HSS signature for t and o:
// Nspk, q, the LM-OTS signature, the LMS type and the authentication path.
func SignatureSize(t LMSType, o OTSType) int {
	return 4 + 4 + (4 + n + otsTable[o].p*n) + 4 + t.Height()*n
}

// PublicKeySize is the size of a one-level HSS public key: L, the types, I, T[1].
const PublicKeySize = 4 + 4 + 4 + 16 + n

var ErrInvalid = errors.New("lms: invalid signature")

func u32(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }

// coef is RFC 8554 §3.1.3's coef(S, i, w).
func coef(s []byte, i, w int) int {
	return int(s[i*w/8]>>(8-(w*(i%(8/w))+w))) & (1<<w - 1)
}

// checksum appends Cksm(Q) (§4.4) to q's digits.
func checksum(q []byte, pr otsParams) []byte {
	sum := 0
	for i := 0; i < n*8/pr.w; i++ {
		sum += 1<<pr.w - 1 - coef(q, i, pr.w)
	}
	return binary.BigEndian.AppendUint16(append([]byte(nil), q...), uint16(sum<<pr.ls))
}

// chain hashes tmp from step from to step to of chain i (§4.5, §4.6).
func chain(id []byte, q uint32, i, from, to int, tmp []byte) []byte {
	var buf [16 + 4 + 2 + 1 + n]byte
	copy(buf[:16], id)
	binary.BigEndian.PutUint32(buf[16:], q)
	binary.BigEndian.PutUint16(buf[20:], uint16(i))
	out := make([]byte, n)
	copy(out, tmp)
	for j := from; j < to; j++ {
		buf[22] = byte(j)
		copy(buf[23:], out)
		h := sha256.Sum256(buf[:])
		copy(out, h[:])
	}
	return out
}

// otsCandidate is Algorithm 4b: the LM-OTS public key a signature implies.
func otsCandidate(id []byte, q uint32, typ OTSType, c, ys, msg []byte) []byte {
	pr := otsTable[typ]
	h := sha256.New()
	h.Write(id)
	h.Write(u32(q))
	h.Write([]byte{dMESG >> 8, dMESG & 0xff})
	h.Write(c)
	h.Write(msg)
	qc := checksum(h.Sum(nil), pr)
	k := sha256.New()
	k.Write(id)
	k.Write(u32(q))
	k.Write([]byte{dPBLC >> 8, dPBLC & 0xff})
	for i := 0; i < pr.p; i++ {
		k.Write(chain(id, q, i, coef(qc, i, pr.w), 1<<pr.w-1, ys[i*n:(i+1)*n]))
	}
	return k.Sum(nil)
}

// lmsVerify is §5.4.2: whether sig (an LMS signature) is valid for msg
// under the LMS public key pub; it returns the bytes of sig it used.
func lmsVerify(pub, msg, sig []byte) (int, error) {
	if len(pub) != 8+16+n || len(sig) < 8 {
		return 0, ErrInvalid
	}
	pubType, pubOTS := LMSType(binary.BigEndian.Uint32(pub)), OTSType(binary.BigEndian.Uint32(pub[4:]))
	id, root := pub[8:24], pub[24:]
	q := binary.BigEndian.Uint32(sig)
	otsType := OTSType(binary.BigEndian.Uint32(sig[4:]))
	pr, ok := otsTable[otsType]
	h := pubType.Height()
	if !ok || otsType != pubOTS || h == 0 {
		return 0, ErrInvalid
	}
	otsEnd := 4 + 4 + n + pr.p*n
	size := otsEnd + 4 + h*n
	if len(sig) < size || LMSType(binary.BigEndian.Uint32(sig[otsEnd:])) != pubType || q >= 1<<h {
		return 0, ErrInvalid
	}
	kc := otsCandidate(id, q, otsType, sig[8:8+n], sig[8+n:otsEnd], msg)
	path := sig[otsEnd+4 : size]
	node := uint32(1<<h) + q
	hh := sha256.New()
	hh.Write(id)
	hh.Write(u32(node))
	hh.Write([]byte{dLEAF >> 8, dLEAF & 0xff})
	hh.Write(kc)
	tmp := hh.Sum(nil)
	for i := 0; node > 1; i++ {
		hh.Reset()
		hh.Write(id)
		hh.Write(u32(node / 2))
		hh.Write([]byte{dINTR >> 8, dINTR & 0xff})
		if node%2 == 1 {
			hh.Write(path[i*n : (i+1)*n])
			hh.Write(tmp)
		} else {
			hh.Write(tmp)
			hh.Write(path[i*n : (i+1)*n])
		}
		tmp = hh.Sum(tmp[:0])
		node /= 2
	}
	if subtle.ConstantTimeCompare(tmp, root) != 1 {
		return 0, ErrInvalid
	}
	return size, nil
}

// lmsPublicKeySize is the length of the LMS public key starting at b.
func lmsPublicKeySize(b []byte) int { return 8 + 16 + n }

// Verify checks an HSS signature (RFC 8554 §6.3) of msg under the HSS
// public key pub, for any number of levels.
func Verify(pub, msg, sig []byte) error {
	if len(pub) < 4 || len(sig) < 4 {
		return ErrInvalid
	}
	levels := binary.BigEndian.Uint32(pub)
	nspk := binary.BigEndian.Uint32(sig)
	if levels == 0 || levels > 8 || nspk+1 != levels {
		return ErrInvalid
	}
	key, rest := pub[4:], sig[4:]
	for i := uint32(0); i < nspk; i++ {
		// The signed public key of the next level follows its signature.
		used, err := lmsProbe(key, rest)
		if err != nil {
			return err
		}
		if len(rest) < used+lmsPublicKeySize(nil) {
			return ErrInvalid
		}
		next := rest[used : used+lmsPublicKeySize(nil)]
		if _, err := lmsVerify(key, next, rest[:used]); err != nil {
			return err
		}
		key, rest = next, rest[used+len(next):]
	}
	used, err := lmsVerify(key, msg, rest)
	if err != nil {
		return err
	}
	if used != len(rest) {
		return ErrInvalid
	}
	return nil
}

// lmsProbe returns the length of the LMS signature at the start of sig
// for key's parameter set.
func lmsProbe(key, sig []byte) (int, error) {
	if len(key) < 8 || len(sig) < 8 {
		return 0, ErrInvalid
	}
	pr, ok := otsTable[OTSType(binary.BigEndian.Uint32(sig[4:]))]
	h := LMSType(binary.BigEndian.Uint32(key)).Height()
	if !ok || h == 0 {
		return 0, ErrInvalid
	}
	return 4 + 4 + n + pr.p*n + 4 + h*n, nil
}

// PrivateKey is a one-level HSS key: an LMS tree over 2^h LM-OTS keys
// derived from a seed (RFC 8554 Appendix A), the whole tree kept.
type PrivateKey struct {
	mu   sync.Mutex // guards next
	typ  LMSType
	ots  OTSType
	id   [16]byte
	seed [n]byte
	tree [][]byte // T[1..2^(h+1)-1]
	next uint32   // the next unused leaf
}

// x is leaf q's chain i secret (Appendix A).
func (k *PrivateKey) x(q uint32, i int) []byte {
	var buf [16 + 4 + 2 + 1 + n]byte
	copy(buf[:], k.id[:])
	binary.BigEndian.PutUint32(buf[16:], q)
	binary.BigEndian.PutUint16(buf[20:], uint16(i))
	buf[22] = 0xff
	copy(buf[23:], k.seed[:])
	h := sha256.Sum256(buf[:])
	return h[:]
}

// NewPrivateKey builds the key of seed and identifier id: it computes all
// 2^h one-time public keys and the tree, which is the expensive part.
func NewPrivateKey(t LMSType, o OTSType, seed [n]byte, id [16]byte) (*PrivateKey, error) {
	h := t.Height()
	pr, ok := otsTable[o]
	if h == 0 || !ok {
		return nil, fmt.Errorf("lms: unsupported parameter set %d/%d", t, o)
	}
	k := &PrivateKey{typ: t, ots: o, id: id, seed: seed, tree: make([][]byte, 1<<(h+1))}
	leaves := uint32(1) << h
	for q := uint32(0); q < leaves; q++ {
		kh := sha256.New()
		kh.Write(id[:])
		kh.Write(u32(q))
		kh.Write([]byte{dPBLC >> 8, dPBLC & 0xff})
		for i := 0; i < pr.p; i++ {
			kh.Write(chain(id[:], q, i, 0, 1<<pr.w-1, k.x(q, i)))
		}
		lh := sha256.New()
		lh.Write(id[:])
		lh.Write(u32(leaves + q))
		lh.Write([]byte{dLEAF >> 8, dLEAF & 0xff})
		lh.Write(kh.Sum(nil))
		k.tree[leaves+q] = lh.Sum(nil)
	}
	for r := leaves - 1; r >= 1; r-- {
		ih := sha256.New()
		ih.Write(id[:])
		ih.Write(u32(r))
		ih.Write([]byte{dINTR >> 8, dINTR & 0xff})
		ih.Write(k.tree[2*r])
		ih.Write(k.tree[2*r+1])
		k.tree[r] = ih.Sum(nil)
	}
	return k, nil
}

// Public returns the one-level HSS public key: L = 1, the LMS public key.
func (k *PrivateKey) Public() []byte {
	b := u32(1)
	b = append(b, u32(uint32(k.typ))...)
	b = append(b, u32(uint32(k.ots))...)
	b = append(b, k.id[:]...)
	return append(b, k.tree[1]...)
}

// Remaining is how many one-time keys are left.
func (k *PrivateKey) Remaining() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return 1<<k.typ.Height() - int(k.next)
}

// ErrExhausted: every one-time key has signed.
var ErrExhausted = errors.New("lms: private key exhausted: every one-time key has been used")

// Sign signs msg with the next one-time key (Algorithm 3 and §5.4.1),
// randomising C with c (n bytes).
func (k *PrivateKey) Sign(msg, c []byte) ([]byte, error) {
	h := k.typ.Height()
	if len(c) != n {
		return nil, fmt.Errorf("lms: C is %d bytes, want %d", len(c), n)
	}
	k.mu.Lock()
	q := k.next
	if q >= 1<<h {
		k.mu.Unlock()
		return nil, ErrExhausted
	}
	k.next++
	k.mu.Unlock()
	pr := otsTable[k.ots]
	mh := sha256.New()
	mh.Write(k.id[:])
	mh.Write(u32(q))
	mh.Write([]byte{dMESG >> 8, dMESG & 0xff})
	mh.Write(c)
	mh.Write(msg)
	qc := checksum(mh.Sum(nil), pr)
	sig := u32(0) // Nspk: one level
	sig = append(sig, u32(q)...)
	sig = append(sig, u32(uint32(k.ots))...)
	sig = append(sig, c...)
	for i := 0; i < pr.p; i++ {
		sig = append(sig, chain(k.id[:], q, i, 0, coef(qc, i, pr.w), k.x(q, i))...)
	}
	sig = append(sig, u32(uint32(k.typ))...)
	for node := uint32(1<<h) + q; node > 1; node /= 2 {
		sig = append(sig, k.tree[node^1]...)
	}
	return sig, nil
}

// Reset makes every one-time key usable again. Signing twice with one
// one-time key lets anyone forge signatures; Reset exists only so a timed
// loop can sign more messages than the tree has leaves, at the same cost.
func (k *PrivateKey) Reset() {
	k.mu.Lock()
	k.next = 0
	k.mu.Unlock()
}

// Encode returns the key's seed and identifier (48 bytes): everything the
// tree is recomputed from, without the count of used leaves.
func (k *PrivateKey) Encode() []byte { return append(append([]byte(nil), k.seed[:]...), k.id[:]...) }
