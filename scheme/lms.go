package scheme

import (
	"crypto"
	"crypto/rand"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/cryptocost/cryptocost/internal/lms"
)

// LMS/HSS (RFC 8554, NIST SP 800-208): stateful hash-based signatures, the
// kind that firmware signing on constrained devices uses (SP 800-193,
// CNSA 2.0). A device verifies a firmware image far more often than anyone
// signs it, so verify is the headline here; keygen computes every one-time
// key of the tree, and sign is cheap once the tree is kept.
//
// The KAT verifies RFC 8554 Appendix F's test case 1 (a two-level HSS
// signature, H5/W8 at both levels) with the same code every LMS scheme
// times, rejects it corrupted, and round-trips a signature of the scheme's
// own key.

//go:embed testdata/lms/rfc8554-testcase1.txt
var lmsTestCase1 string

func lmsVector() signVector {
	v := signVector{name: "RFC 8554 Appendix F test case 1"}
	for _, line := range strings.Split(lmsTestCase1, "\n") {
		name, value, ok := strings.Cut(line, " = ")
		switch {
		case !ok:
		case name == "pub":
			v.pub = value
		case name == "msg":
			v.msg = value
		case name == "sig":
			v.sig = value
		}
	}
	return v
}

func lmsCheck(s *signScheme, v signVector) error {
	pub, msg, sig := unhex(v.pub), unhex(v.msg), unhex(v.sig)
	if err := lms.Verify(pub, msg, sig); err != nil {
		return signKATError(s.info.Name, v.name, "the published signature does not verify: "+err.Error())
	}
	sig[len(sig)/2] ^= 1
	if lms.Verify(pub, msg, sig) == nil {
		return signKATError(s.info.Name, v.name, "the published signature verifies with a byte changed")
	}
	return nil
}

type lmsPublicKey []byte

func newLMS(t lms.LMSType, o lms.OTSType, name string, w int) *signScheme {
	h := t.Height()
	var keys sync.Map // variant -> *lms.PrivateKey: keygen is the costly part
	gen := func() (crypto.PublicKey, crypto.PrivateKey, error) {
		var seed [32]byte
		var id [16]byte
		rand.Read(seed[:])
		rand.Read(id[:])
		k, err := lms.NewPrivateKey(t, o, seed, id)
		if err != nil {
			return nil, nil, err
		}
		return lmsPublicKey(k.Public()), k, nil
	}
	return &signScheme{
		info: Info{
			Name: name, Family: FamilySign, Provider: ProviderCryptocost,
			Params: []Param{{"lms_type", fmt.Sprintf("LMS_SHA256_M32_H%d", h)}, {"lmots_type", fmt.Sprintf("LMOTS_SHA256_N32_W%d", w)},
				{"levels", "1 (HSS with L = 1)"}, {"signatures_per_key", itoa(1 << h)},
				{"stateful", "each one-time key signs once; the timed sign loop starts the tree again when it runs out (same cost, never safe in use)"},
				{"key_type", name}, {"keygen_on", name}, {"key_encoding", "HSS public key (RFC 8554 §6.1); private: seed || I"}},
			Security: Security{Bits: 256, Note: "RFC 8554 §10, SP 800-208: n = m = 32 bytes of SHA-256: 256-bit (second-)preimage resistance classically, about 128 bits against quantum search"},
			Standard: "RFC 8554, NIST SP 800-208; internal/lms (vectors: RFC 8554 Appendix F test case 1)",
			Sizes:    Sizes{PublicKey: lms.PublicKeySize, PrivateKey: 48, Signature: lms.SignatureSize(t, o)},
		},
		gen: gen,
		testKey: func(v int) (crypto.PublicKey, crypto.PrivateKey, error) {
			if k, ok := keys.Load(v); ok {
				return lmsPublicKey(k.(*lms.PrivateKey).Public()), k, nil
			}
			var seed [32]byte
			var id [16]byte
			copy(seed[:], testData(32, name+"/seed", v))
			copy(id[:], testData(16, name+"/I", v))
			k, err := lms.NewPrivateKey(t, o, seed, id)
			if err != nil {
				return nil, nil, err
			}
			actual, _ := keys.LoadOrStore(v, k)
			return lmsPublicKey(k.Public()), actual, nil
		},
		sign: func(priv crypto.PrivateKey, msg []byte) ([]byte, error) {
			k, err := signKeyOf[*lms.PrivateKey](priv)
			if err != nil {
				return nil, err
			}
			c := make([]byte, 32)
			rand.Read(c)
			sig, err := k.Sign(msg, c)
			if errors.Is(err, lms.ErrExhausted) {
				k.Reset() // see the stateful parameter
				sig, err = k.Sign(msg, c)
			}
			return sig, err
		},
		verify: func(pub crypto.PublicKey, msg, sig []byte) bool {
			p, err := signKeyOf[lmsPublicKey](pub)
			return err == nil && lms.Verify(p, msg, sig) == nil
		},
		encode: func(pub crypto.PublicKey, priv crypto.PrivateKey) ([]byte, []byte, error) {
			p, err1 := signKeyOf[lmsPublicKey](pub)
			k, err2 := signKeyOf[*lms.PrivateKey](priv)
			if err1 != nil || err2 != nil {
				return nil, nil, fmt.Errorf("%s: want the keys GenerateKey returns, got %T and %T", name, pub, priv)
			}
			return p, k.Encode(), nil
		},
		vectors:    []signVector{lmsVector()},
		check:      lmsCheck,
		keygen:     true,
		slowKeygen: h >= 10 && w == 8, // 2^h leaves × p chains × 255 hashes: seconds
	}
}

func init() {
	register(newLMS(lms.LMSH5, lms.OTSW8, "LMS-SHA256-H5-W8", 8))
	register(newLMS(lms.LMSH10, lms.OTSW4, "LMS-SHA256-H10-W4", 4))
}
