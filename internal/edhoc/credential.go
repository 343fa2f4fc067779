package edhoc

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"errors"
	"fmt"

	"crypto/elliptic"
)

// Credential is an authentication credential (RFC 9528 §3.5.2): CRED, the
// bytes the transcript hashes and the MACs cover, with the authentication
// public key it carries. A CWT Claims Set (CCS, RFC 8392) holds a raw
// public key as a COSE_Key under cnf; an X.509 certificate is CRED as a
// CBOR byte string of its DER encoding.
type Credential struct {
	// CRED is the credential as the transcript includes it.
	CRED []byte
	// DER is the certificate of an X.509 credential (nil for a CCS).
	DER []byte
	// Subject is the CCS sub claim or the certificate's common name.
	Subject string
	// KID is the COSE_Key's kid (CCS) or nil.
	KID []byte
	// COSEKey is the CCS's COSE_Key as encoded in it (nil for X.509).
	COSEKey []byte
	// SignKey and DHKey are the authentication key, as a signature key
	// (methods with signatures) and as a static DH key (methods with
	// static DH); a P-256 COSE_Key serves as either.
	SignKey crypto.PublicKey
	DHKey   *ecdh.PublicKey
}

// Reference is how a message identifies a credential (ID_CRED, RFC 9528
// §3.5.3): by reference, the peer looks it up; by value, the message
// carries it.
type Reference int

const (
	// ByKID names a credential by its key identifier: ID_CRED = {4: kid}
	// ('kid', RFC 9052 §3.1), sent in compact form (§3.5.3.2).
	ByKID Reference = iota
	// ByValueCCS carries the CCS: ID_CRED = {14: CCS} ('kccs', RFC 9528
	// §10.6).
	ByValueCCS
	// ByX5T names an X.509 certificate by its SHA-256 hash truncated to
	// 64 bits: ID_CRED = {34: [-15, hash]} ('x5t', RFC 9360 §2).
	ByX5T
	// ByX5Chain carries the certificate: ID_CRED = {33: DER} ('x5chain',
	// RFC 9360 §2).
	ByX5Chain
)

// COSE header labels (RFC 9052 §3.1, RFC 9360 §2, RFC 9528 §10.6) and the
// SHA-256/64 algorithm (RFC 9054 Table 1).
const (
	labelKID     = 4
	labelKCCS    = 14
	labelX5Chain = 33
	labelX5T     = 34
	algSHA256_64 = -15
)

// String names the reference for results and errors.
func (r Reference) String() string {
	switch r {
	case ByKID:
		return "kid"
	case ByValueCCS:
		return "kccs"
	case ByX5T:
		return "x5t"
	case ByX5Chain:
		return "x5chain"
	}
	return fmt.Sprintf("reference(%d)", int(r))
}

// NewCCS makes a CCS credential {2: sub, 8: {1: COSE_Key}} (RFC 8392 §3,
// RFC 8747 §3.1) for a COSE_Key map.
func NewCCS(sub string, coseKey map[int]any) (*Credential, error) {
	raw := marshal(map[int]any{2: sub, 8: map[int]any{1: coseKey}})
	return ParseCCS(raw)
}

// NewX509 makes a credential from a DER certificate.
func NewX509(der []byte) (*Credential, error) {
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("X.509 credential: %w", err)
	}
	c := &Credential{CRED: bstr(der), DER: der, Subject: cert.Subject.CommonName}
	switch k := cert.PublicKey.(type) {
	case ed25519.PublicKey:
		c.SignKey = k
	case *ecdsa.PublicKey:
		c.SignKey = k
		if c.DHKey, err = k.ECDH(); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("X.509 credential: a %T key, want Ed25519 or P-256", cert.PublicKey)
	}
	return c, nil
}

// maxCredential bounds a credential received by value.
const maxCredential = 2048

// ParseCCS reads a CCS credential and its COSE_Key.
func ParseCCS(raw []byte) (*Credential, error) {
	if len(raw) > maxCredential {
		return nil, fmt.Errorf("CCS of %d bytes: at most %d", len(raw), maxCredential)
	}
	r := newReader(raw)
	if _, err := r.next("CCS"); err != nil || !r.empty() {
		return nil, fmt.Errorf("CCS: %w", errors.Join(err, errEncoding))
	}
	var ccs struct {
		Sub string `cbor:"2,keyasint"`
		Cnf struct {
			Key map[int]any `cbor:"1,keyasint"`
		} `cbor:"8,keyasint"`
	}
	if err := decMode.Unmarshal(raw, &ccs); err != nil {
		return nil, fmt.Errorf("CCS: %w", err)
	}
	var rawKey struct {
		Cnf struct {
			Key rawMessage `cbor:"1,keyasint"`
		} `cbor:"8,keyasint"`
	}
	if err := decMode.Unmarshal(raw, &rawKey); err != nil {
		return nil, fmt.Errorf("CCS: %w", err)
	}
	c := &Credential{CRED: raw, Subject: ccs.Sub, COSEKey: []byte(rawKey.Cnf.Key)}
	k := ccs.Cnf.Key
	if kid, ok := k[2].([]byte); ok {
		c.KID = kid
	}
	x, _ := k[-2].([]byte)
	kty, _ := k[1].(uint64)
	crv, _ := k[-1].(uint64)
	switch {
	case kty == 1 && crv == 6 && len(x) == ed25519.PublicKeySize:
		c.SignKey = ed25519.PublicKey(x)
	case kty == 1 && crv == 4:
		pk, err := ecdh.X25519().NewPublicKey(x)
		if err != nil {
			return nil, fmt.Errorf("CCS: X25519 key: %w", err)
		}
		c.DHKey = pk
	case kty == 2 && crv == 1:
		y, _ := k[-3].([]byte)
		if len(x) != 32 || len(y) != 32 {
			return nil, errors.New("CCS: a P-256 COSE_Key needs 32-byte x and y")
		}
		pk, err := ecdh.P256().NewPublicKey(append(append([]byte{4}, x...), y...))
		if err != nil {
			return nil, fmt.Errorf("CCS: P-256 key: %w", err)
		}
		c.DHKey = pk
		sk, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...))
		if err != nil {
			return nil, fmt.Errorf("CCS: P-256 key: %w", err)
		}
		c.SignKey = sk
	default:
		return nil, fmt.Errorf("CCS: COSE_Key kty %d crv %d: want OKP Ed25519/X25519 or EC2 P-256", kty, crv)
	}
	return c, nil
}

// IDCred is the ID_CRED map for reference ref: the bytes context_2 and
// context_3 include (RFC 9528 §5.3.2).
func (c *Credential) IDCred(ref Reference) ([]byte, error) {
	switch ref {
	case ByKID:
		if c.KID == nil {
			return nil, errors.New("a credential without a kid cannot be referenced by kid")
		}
		return marshal(map[int]any{labelKID: c.KID}), nil
	case ByValueCCS:
		if c.DER != nil {
			return nil, errors.New("kccs carries a CCS, not an X.509 certificate")
		}
		// The CCS is embedded as its own encoding: the map item is copied
		// byte for byte after the header and the label.
		return seq([]byte{0xa1, labelKCCS}, c.CRED), nil
	case ByX5T:
		if c.DER == nil {
			return nil, errors.New("x5t names an X.509 certificate")
		}
		h := sha256.Sum256(c.DER)
		return marshal(map[int]any{labelX5T: []any{algSHA256_64, h[:8]}}), nil
	case ByX5Chain:
		if c.DER == nil {
			return nil, errors.New("x5chain carries an X.509 certificate")
		}
		return marshal(map[int]any{labelX5Chain: c.DER}), nil
	}
	return nil, fmt.Errorf("unknown credential reference %d", ref)
}

// compactIDCred is ID_CRED as PLAINTEXT_2/3 carry it (RFC 9528 §3.5.3.2):
// a map holding only a kid is replaced by the kid, as an integer or byte
// string (encodeID); any other map is sent whole.
func compactIDCred(idCred []byte) []byte {
	var m map[int]any
	if decMode.Unmarshal(idCred, &m) == nil && len(m) == 1 {
		if kid, ok := m[labelKID].([]byte); ok {
			return encodeID(kid)
		}
	}
	return idCred
}

// PeerID is a received ID_CRED, decoded.
type PeerID struct {
	// Raw is the ID_CRED map (rebuilt from the compact form for a kid).
	Raw []byte
	// One of these is set.
	KID     []byte
	CCS     []byte
	X5Chain []byte
	X5T     []byte
}

// Resolver finds the credential a peer's ID_CRED names (by reference) or
// checks the one it carries (by value): it decides who is trusted.
type Resolver func(PeerID) (*Credential, error)

// readIDCred reads ID_CRED from a plaintext: a compact kid or a map.
func (r *reader) readIDCred(what string) (PeerID, error) {
	it, err := r.next(what)
	if err != nil {
		return PeerID{}, err
	}
	switch it.major {
	case majorUint, majorNeg, majorBytes:
		// A compact kid: decode it the way idItem does.
		kid, err := newReader(it.raw).idItem(what)
		if err != nil {
			return PeerID{}, err
		}
		return PeerID{Raw: marshal(map[int]any{labelKID: kid}), KID: kid}, nil
	case majorMap:
	default:
		return PeerID{}, fmt.Errorf("%s: want a map, a byte string or an integer, got CBOR major type %d", what, it.major)
	}
	var m map[int]cborRaw
	if err := decMode.Unmarshal(it.raw, &m); err != nil || len(m) != 1 {
		return PeerID{}, fmt.Errorf("%s: want a map with one COSE header parameter", what)
	}
	id := PeerID{Raw: it.raw}
	for label, v := range m {
		switch label {
		case labelKID:
			// RFC 9529 §4.1.6: a map holding only a kid must be sent compact.
			return PeerID{}, fmt.Errorf("%s: %w: a map holding only a kid must be sent as the kid alone (RFC 9528 §3.5.3.2)", what, errEncoding)
		case labelKCCS:
			id.CCS = []byte(v)
		case labelX5Chain:
			if err := decMode.Unmarshal(v, &id.X5Chain); err != nil {
				return PeerID{}, fmt.Errorf("%s: x5chain: want one certificate as a byte string", what)
			}
		case labelX5T:
			var t []cborRaw
			var alg int
			if decMode.Unmarshal(v, &t) != nil || len(t) != 2 || decMode.Unmarshal(t[0], &alg) != nil || alg != algSHA256_64 ||
				decMode.Unmarshal(t[1], &id.X5T) != nil || len(id.X5T) != 8 {
				return PeerID{}, fmt.Errorf("%s: x5t: want [-15, 8-byte SHA-256/64 hash]", what)
			}
		default:
			return PeerID{}, fmt.Errorf("%s: COSE header parameter %d is not a credential identifier this implementation knows (4, 14, 33, 34)", what, label)
		}
	}
	return id, nil
}

// cborRaw is a raw CBOR item inside a decoded container.
type cborRaw = rawMessage

// Names reports whether id names (or carries) this credential.
func (c *Credential) Names(id PeerID) bool {
	switch {
	case id.KID != nil:
		return c.KID != nil && string(c.KID) == string(id.KID)
	case id.CCS != nil:
		return string(c.CRED) == string(id.CCS)
	case id.X5Chain != nil:
		return c.DER != nil && string(c.DER) == string(id.X5Chain)
	case id.X5T != nil:
		h := sha256.Sum256(c.DER)
		return c.DER != nil && string(h[:8]) == string(id.X5T)
	}
	return false
}

// ResolveFrom is a Resolver over known credentials: by reference it
// returns the one the ID names; by value it parses what was carried and
// returns it only if it is one of the known ones (byte for byte).
func ResolveFrom(known ...*Credential) Resolver {
	return func(id PeerID) (*Credential, error) {
		for _, c := range known {
			if c.Names(id) {
				return c, nil
			}
		}
		return nil, errors.New("no trusted credential matches the peer's ID_CRED")
	}
}
