// go-xmssmt's SIMD XOR dependency (github.com/templexxx/cpu v0.0.9, the
// newest) declares its init twice on riscv64 and wasm, so XMSS is built
// for every other target; xmss_other.go says so on those two.

//go:build !riscv64 && !wasm

package scheme

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/sha3"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/bwesterb/go-xmssmt"
)

// XMSS and XMSS^MT (RFC 8391, NIST SP 800-208): stateful hash-based
// signatures beside LMS (lms.go), for firmware signing on constrained
// devices. The implementation is github.com/bwesterb/go-xmssmt, a Go
// module of both (by one of CIRCL's authors), tested there against the
// XMSS reference implementation's test/vectors output. A device verifies
// a firmware image far more often than anyone signs it, so verify is the
// headline; keygen computes the whole tree (XMSS) or the first subtree of
// each layer (XMSS^MT), and sign is cheap once those are kept.
//
// Keys and signatures are RFC 8391's encodings: the public key is OID ||
// root || SEED (§4.1.7), the signature idx_sig || r || the WOTS+
// signatures and authentication paths (§4.1.8). The module's own
// encodings put its parameter word where the OID is; the conversion is
// four bytes and outside anything timed but verify's parse.
//
// The stateful key: each one-time key signs once; the module keeps the
// next index and the cached subtrees in a container (here in memory, not
// its default file). A timed sign loop that exhausts the key starts again
// at index 0: the same cost, and never safe in use, as the "stateful"
// parameter says.
//
// Known answer: the reference implementation's test/vectors (as recorded
// in go-xmssmt's api_test.go): with SK_SEED, SK_PRF and SEED the bytes 0,
// 1, ..., 3n-1, the public key's SHAKE128 digest (10 bytes, the OID left
// out) and that of the signature of the one-byte message 0x25 at index
// 2^(h-1) are reproduced; the signature verifies and a corrupted one does
// not.
//
// Not on riscv64 and wasm: see the build constraint above.

// xmssRef is a reference-implementation vector: the 10-byte SHAKE128
// digests of the public key and the signature (each without its OID).
type xmssRef struct{ pk, sig string }

type xmssPublicKey struct {
	enc []byte // RFC 8391 encoding
	pk  *xmssmt.PublicKey
}

// xmssSet is one parameter set.
type xmssSet struct {
	name   string // RFC 8391 name: "XMSS-SHA2_10_256"
	mt     bool
	oid    uint32 // RFC 8391 / IANA OID in its registry (XMSS or XMSS^MT)
	ref    xmssRef
	levels string
}

// context is the parameter set's context, computing on one goroutine: the
// module's default spreads subtree generation over every CPU, which a
// device does not have and which the thread CPU clock would not count.
func (x xmssSet) context() *xmssmt.Context {
	ctx := xmssmt.NewContextFromOid(x.mt, x.oid)
	ctx.Threads = 1
	return ctx
}

// xmssMemory is a PrivateKeyContainer in memory: the secret key, the next
// index and the cached subtrees.
type xmssMemory struct {
	sk       []byte
	params   *xmssmt.Params
	seqNo    xmssmt.SignatureSeqNo
	borrowed uint32
	trees    map[xmssmt.SubTreeAddress][]byte
}

func (m *xmssMemory) ResetCache() xmssmt.Error {
	m.trees = map[xmssmt.SubTreeAddress][]byte{}
	return nil
}

func (m *xmssMemory) GetSubTree(a xmssmt.SubTreeAddress) ([]byte, bool, xmssmt.Error) {
	if b, ok := m.trees[a]; ok {
		return b, true, nil
	}
	b := make([]byte, m.params.CachedSubTreeSize())
	m.trees[a] = b
	return b, false, nil
}

func (m *xmssMemory) HasSubTree(a xmssmt.SubTreeAddress) bool {
	_, ok := m.trees[a]
	return ok
}

func (m *xmssMemory) DropSubTree(a xmssmt.SubTreeAddress) xmssmt.Error {
	delete(m.trees, a)
	return nil
}

func (m *xmssMemory) ListSubTrees() ([]xmssmt.SubTreeAddress, xmssmt.Error) {
	out := make([]xmssmt.SubTreeAddress, 0, len(m.trees))
	for a := range m.trees {
		out = append(out, a)
	}
	return out, nil
}

func (m *xmssMemory) Reset(sk []byte, p xmssmt.Params) xmssmt.Error {
	m.sk, m.params, m.seqNo, m.borrowed = bytes.Clone(sk), &p, 0, 0
	return m.ResetCache()
}

func (m *xmssMemory) BorrowSeqNos(n uint32) (xmssmt.SignatureSeqNo, xmssmt.Error) {
	s := m.seqNo
	m.seqNo += xmssmt.SignatureSeqNo(n)
	m.borrowed += n
	return s, nil
}

func (m *xmssMemory) SetSeqNo(s xmssmt.SignatureSeqNo) xmssmt.Error {
	m.seqNo, m.borrowed = s, 0
	return nil
}

func (m *xmssMemory) GetSeqNo() (xmssmt.SignatureSeqNo, uint32, xmssmt.Error) {
	return m.seqNo, m.borrowed, nil
}

func (m *xmssMemory) GetPrivateKey() ([]byte, xmssmt.Error) { return m.sk, nil }
func (m *xmssMemory) Initialized() *xmssmt.Params           { return m.params }
func (m *xmssMemory) CacheInitialized() bool                { return m.trees != nil }
func (m *xmssMemory) Close() xmssmt.Error                   { return nil }

// xmssKey is a private key with the lock its stateful signing needs.
type xmssKey struct {
	mu sync.Mutex
	sk *xmssmt.PrivateKey
}

func (x xmssSet) derive(seed []byte) (*xmssKey, xmssPublicKey, error) {
	ctx := x.context()
	n := len(seed) / 3
	// RFC 8391 §4.1.7's key generation: SK_SEED, SK_PRF, then SEED.
	sk, pk, xerr := ctx.DeriveInto(&xmssMemory{}, seed[2*n:], seed[:n], seed[n:2*n])
	if xerr != nil {
		return nil, xmssPublicKey{}, xerr
	}
	enc, err := pk.MarshalBinary()
	if err != nil {
		return nil, xmssPublicKey{}, err
	}
	binary.BigEndian.PutUint32(enc, x.oid)
	return &xmssKey{sk: sk}, xmssPublicKey{enc: enc, pk: pk}, nil
}

// sign signs msg at the key's next index, starting the key again when it
// is exhausted (see the stateful parameter).
func (k *xmssKey) sign(msg []byte, max uint64) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.signLocked(msg, max)
}

// signAt signs msg at index i (the known answer's index).
func (k *xmssKey) signAt(msg []byte, i xmssmt.SignatureSeqNo, max uint64) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.sk.DangerousSetSeqNo(i)
	return k.signLocked(msg, max)
}

func (k *xmssKey) signLocked(msg []byte, max uint64) ([]byte, error) {
	if uint64(k.sk.SeqNo()) >= max {
		k.sk.DangerousSetSeqNo(0)
	}
	sig, xerr := k.sk.Sign(msg)
	if xerr != nil {
		return nil, xerr
	}
	b, err := sig.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return b[4:], nil // the RFC 8391 signature: without the module's parameter word
}

// xmssVerify parses an RFC 8391 signature and verifies it.
func xmssVerify(ctx *xmssmt.Context, pub xmssPublicKey, msg, sig []byte) bool {
	if len(sig) != int(ctx.SignatureSize()) {
		return false
	}
	p := ctx.Params()
	word, err := p.MarshalBinary()
	if err != nil {
		return false
	}
	var s xmssmt.Signature
	if s.UnmarshalBinary(append(word, sig...)) != nil {
		return false
	}
	ok, _ := pub.pk.Verify(&s, msg)
	return ok
}

// xmssSeed is the key seed of variant v: for 0 the reference vectors'
// SK_SEED || SK_PRF || SEED = 0, 1, ..., 3n-1.
func xmssSeed(n int, name string, v int) []byte {
	if v != 0 {
		return testData(3*n, name+"/seed", v)
	}
	seed := make([]byte, 3*n)
	for i := range seed {
		seed[i] = byte(i)
	}
	return seed
}

func xmssDigest(b []byte) string { return hexString(sha3.SumSHAKE128(b, 10)) }

func newXMSS(x xmssSet) *signScheme {
	ctx := x.context()
	p := ctx.Params()
	max := p.MaxSignatureSeqNo()
	n := int(p.N)
	var keys sync.Map // variant -> key pair: keygen is the costly part
	s := &signScheme{
		info: Info{
			Name: x.name, Family: FamilySign, Provider: Provider("bwesterb/go-xmssmt"),
			Params: []Param{{"hash", "SHA-256"}, {"n", itoa(n)}, {"w", itoa(int(p.WotsW))},
				{"height", itoa(int(p.FullHeight))}, {"levels", x.levels}, {"oid", fmt.Sprintf("0x%08x", x.oid)},
				{"signatures_per_key", fmt.Sprintf("%d (go-xmssmt leaves the last of RFC 8391's 2^%d indices unused)", max, p.FullHeight)},
				{"stateful", "each one-time key signs once; the timed sign loop starts the key again when it runs out (same cost, never safe in use)"},
				{"key_type", x.name}, {"keygen_on", x.name},
				{"key_encoding", "RFC 8391 public key (OID || root || SEED); private: SK_SEED || SK_PRF || SEED"}},
			Security: Security{Bits: 256, Note: "RFC 8391 §9, SP 800-208: n = 32 bytes of SHA-256: 256-bit (second-)preimage resistance classically, about 128 bits against quantum search"},
			Standard: "RFC 8391, NIST SP 800-208; github.com/bwesterb/go-xmssmt (vectors: the XMSS reference implementation's test/vectors, as go-xmssmt records them)",
			Sizes:    Sizes{PublicKey: 4 + 2*n, PrivateKey: 3 * n, Signature: int(ctx.SignatureSize())},
		},
		keygen: true, // XMSS-SHA2_10_256: 2^10 leaves × 67 chains × 15 steps, about 0.5 s here: under the slow mark's second
	}
	fresh := func() (*xmssKey, xmssPublicKey, error) {
		seed := make([]byte, 3*n)
		rand.Read(seed)
		return x.derive(seed)
	}
	s.gen = func() (crypto.PublicKey, crypto.PrivateKey, error) {
		k, pub, err := fresh()
		return pub, k, err
	}
	s.testKey = func(v int) (crypto.PublicKey, crypto.PrivateKey, error) {
		type pair struct {
			k   *xmssKey
			pub xmssPublicKey
		}
		if kp, ok := keys.Load(v); ok {
			return kp.(pair).pub, kp.(pair).k, nil
		}
		k, pub, err := x.derive(xmssSeed(n, x.name, v))
		if err != nil {
			return nil, nil, err
		}
		kp, _ := keys.LoadOrStore(v, pair{k, pub})
		return kp.(pair).pub, kp.(pair).k, nil
	}
	s.sign = func(priv crypto.PrivateKey, msg []byte) ([]byte, error) {
		k, err := signKeyOf[*xmssKey](priv)
		if err != nil {
			return nil, err
		}
		return k.sign(msg, max)
	}
	s.verify = func(pub crypto.PublicKey, msg, sig []byte) bool {
		p, err := signKeyOf[xmssPublicKey](pub)
		return err == nil && xmssVerify(ctx, p, msg, sig)
	}
	s.encode = func(pub crypto.PublicKey, priv crypto.PrivateKey) ([]byte, []byte, error) {
		p, err1 := signKeyOf[xmssPublicKey](pub)
		_, err2 := signKeyOf[*xmssKey](priv)
		if err := errors.Join(err1, err2); err != nil {
			return nil, nil, err
		}
		return p.enc, make([]byte, 3*n), nil // the private key's length; its bytes stay in the container
	}
	s.vectors = []signVector{{name: "XMSS reference implementation test/vectors (OID " + fmt.Sprintf("0x%08x", x.oid) + ")",
		pub: x.ref.pk, msg: "25", sig: x.ref.sig}}
	s.check = func(s *signScheme, v signVector) error {
		// Variant 0's key is the vector's (keygen is the costly part: the
		// round trip and the timed loops reuse it).
		pubKey, priv, err := s.testKey(0)
		if err != nil {
			return fmt.Errorf("%s: vector %s: %w", s.info.Name, v.name, err)
		}
		k, pub := priv.(*xmssKey), pubKey.(xmssPublicKey)
		if got := xmssDigest(pub.enc[4:]); got != v.pub {
			return katError(s.info.Name, v.name+" public key (SHAKE128 digest)", unhex(got), unhex(v.pub))
		}
		msg := unhex(v.msg)
		sig, err := k.signAt(msg, xmssmt.SignatureSeqNo(1)<<(p.FullHeight-1), max)
		if err != nil {
			return fmt.Errorf("%s: vector %s: %w", s.info.Name, v.name, err)
		}
		if got := xmssDigest(sig); got != v.sig {
			return katError(s.info.Name, v.name+" signature (SHAKE128 digest)", unhex(got), unhex(v.sig))
		}
		if !s.verify(pub, msg, sig) {
			return signKATError(s.info.Name, v.name, "the reproduced signature does not verify")
		}
		sig[len(sig)/2] ^= 1
		if s.verify(pub, msg, sig) {
			return signKATError(s.info.Name, v.name, "the signature verifies with a byte changed")
		}
		return nil
	}
	return s
}

func init() {
	register(newXMSS(xmssSet{name: "XMSS-SHA2_10_256", oid: 0x00000001, levels: "1 (XMSS)",
		ref: xmssRef{pk: "7de72d192121f414d4bb", sig: "8b6cb278d50a3694ca38"}}))
	register(newXMSS(xmssSet{name: "XMSSMT-SHA2_20/4_256", mt: true, oid: 0x00000002, levels: "4 (XMSS^MT, subtrees of height 5)",
		ref: xmssRef{pk: "9df4c75282451bf2bc53", sig: "fd4ff4c18801147b2804"}}))
}
