// Package edhoc implements Ephemeral Diffie-Hellman Over COSE (EDHOC, RFC
// 9528): the four authentication methods (signature or static DH on each
// side), cipher suites 0 (X25519, EdDSA) and 2 (P-256, ES256), credentials
// as CWT Claims Sets or X.509 certificates identified by reference (kid,
// x5t) or carried by value (kccs, x5chain), message_4, the error message
// with cipher suite negotiation, the exporter and key update, and the
// OSCORE security context EDHOC establishes (RFC 9528 Appendix A.1).
//
// It is written here because no Go module implementing RFC 9528 is
// reachable (the known implementations are in C, Rust, Python and Java).
// It builds on fxamacker/cbor for CBOR and on the standard library for
// the primitives (crypto/ecdh, crypto/ed25519, crypto/ecdsa, HMAC-SHA-256)
// and pion's AES-CCM for AES-CCM-16-64-128. The tests check it byte for
// byte against the two traces of RFC 9529 and its invalid messages.
//
// External authorization data (EAD) is not supported: a message carrying
// EAD items is refused with an error that says so.
package edhoc

import (
	"crypto"
	"crypto/ecdh"
	"crypto/hmac"
	"crypto/rand"
	"errors"
	"fmt"
	"time"
)

// Method is the authentication method (RFC 9528 §3.2): 0 both sign, 1 the
// Initiator signs and the Responder uses static DH, 2 the reverse, 3 both
// use static DH.
type Method int

// initiatorStatic reports static DH authentication of the Initiator.
func (m Method) initiatorStatic() bool { return m == 2 || m == 3 }

// responderStatic reports static DH authentication of the Responder.
func (m Method) responderStatic() bool { return m == 1 || m == 3 }

// String names the method as RFC 9528 Table 2 does.
func (m Method) String() string {
	switch m {
	case 0:
		return "0 (signature, signature)"
	case 1:
		return "1 (signature, static DH)"
	case 2:
		return "2 (static DH, signature)"
	case 3:
		return "3 (static DH, static DH)"
	}
	return fmt.Sprintf("method %d", int(m))
}

// Party is one side's configuration.
type Party struct {
	// Suite is the selected cipher suite; Method the method.
	Suite  *Suite
	Method Method
	// SuitesI is the Initiator's SUITES_I in order of preference, ending
	// with the selected suite (nil: just Suite). RFC 9528 §5.2.2.
	SuitesI []int
	// ConnID is C_I or C_R, a byte string (RFC 9528 §3.3).
	ConnID []byte
	// Cred is the party's own credential and Ref how its messages name it.
	Cred *Credential
	Ref  Reference
	// SignKey is the signature key (a method where this party signs);
	// DHKey the static DH key (a method where it uses static DH).
	SignKey crypto.Signer
	DHKey   *ecdh.PrivateKey
	// Peer resolves the other party's credential.
	Peer Resolver
	// Ephemeral is the ephemeral private key as a scalar; nil draws one
	// (tests set it to reproduce RFC 9529).
	Ephemeral []byte
	// Stats, if set, counts and times the crypto operations.
	Stats *Stats
}

// Stats counts the public-key operations a party did and times them
// (nanoseconds, one sample per operation), for cost accounting.
type Stats struct {
	Count map[string]int
	Ns    map[string][]float64
}

// Operation names in Stats.
const (
	OpKeygen = "ecdh-keygen" // ephemeral key pair
	OpDH     = "ecdh-derive" // one ECDH shared secret
	OpSign   = "sign"
	OpVerify = "verify"
	OpSeal   = "aead-seal"
	OpOpen   = "aead-open"
)

func (st *Stats) do(op string, f func() error) error {
	if st == nil {
		return f()
	}
	if st.Count == nil {
		st.Count, st.Ns = map[string]int{}, map[string][]float64{}
	}
	start := time.Now()
	err := f()
	st.Ns[op] = append(st.Ns[op], float64(time.Since(start).Nanoseconds()))
	st.Count[op]++
	return err
}

// Session is one EDHOC session from one side.
type Session struct {
	p         Party
	initiator bool
	state     int

	eph            *ecdh.PrivateKey
	gx, gy         []byte // encoded ephemeral public keys
	peerEph        *ecdh.PublicKey
	cI, cR         []byte
	hashMsg1       []byte
	th2, th3, th4  []byte
	prk2e, prk3e2m []byte
	prk4e3m        []byte
	prkOut, prkExp []byte
	peer           *Credential
	peerID         PeerID
	suitesI        []int
}

// Session states.
const (
	start = iota
	sentM1
	gotM1
	sentM2
	gotM2
	sentM3
	completed
)

// NewInitiator starts a session as the Initiator.
func NewInitiator(p Party) (*Session, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	return &Session{p: p, initiator: true}, nil
}

// NewResponder starts a session as the Responder.
func NewResponder(p Party) (*Session, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	return &Session{p: p}, nil
}

func (p *Party) check() error {
	if p.Suite == nil {
		return errors.New("edhoc: no cipher suite")
	}
	if p.Method < 0 || p.Method > 3 {
		return fmt.Errorf("edhoc: method %d: want 0 to 3", p.Method)
	}
	if p.Cred == nil || p.Peer == nil {
		return errors.New("edhoc: a party needs its credential and a resolver for the peer's")
	}
	return nil
}

// static reports whether this party authenticates with static DH.
func (s *Session) static() bool {
	if s.initiator {
		return s.p.Method.initiatorStatic()
	}
	return s.p.Method.responderStatic()
}

func (s *Session) ephemeral() error {
	return s.p.Stats.do(OpKeygen, func() error {
		var err error
		if s.p.Ephemeral != nil {
			s.eph, err = s.p.Suite.Curve.NewPrivateKey(s.p.Ephemeral)
		} else {
			s.eph, err = s.p.Suite.Curve.GenerateKey(rand.Reader)
		}
		return err
	})
}

func (s *Session) dh(priv *ecdh.PrivateKey, pub *ecdh.PublicKey) ([]byte, error) {
	var out []byte
	err := s.p.Stats.do(OpDH, func() error {
		var err error
		out, err = priv.ECDH(pub)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("ECDH: %w", err)
	}
	return out, nil
}

// Message1 composes message_1 = (METHOD, SUITES_I, G_X, C_I) (RFC 9528
// §5.2.1).
func (s *Session) Message1() ([]byte, error) {
	if !s.initiator || s.state != start {
		return nil, errors.New("edhoc: message_1 is the Initiator's first message")
	}
	if err := s.ephemeral(); err != nil {
		return nil, err
	}
	s.gx = s.p.Suite.Curve.Encode(s.eph.PublicKey())
	suites := s.p.SuitesI
	if suites == nil {
		suites = []int{s.p.Suite.ID}
	}
	if suites[len(suites)-1] != s.p.Suite.ID {
		return nil, errors.New("edhoc: SUITES_I must end with the selected suite")
	}
	var enc []byte
	if len(suites) == 1 {
		enc = marshal(suites[0])
	} else {
		enc = marshal(suites)
	}
	s.cI = s.p.ConnID
	m := seq(marshal(int(s.p.Method)), enc, bstr(s.gx), encodeID(s.cI))
	s.hashMsg1 = hash(m)
	s.state = sentM1
	return m, nil
}

// ProcessMessage1 reads message_1 at the Responder. A suite the Responder
// cannot use gives an *ErrorMessage (code 2, its suites) to send back.
func (s *Session) ProcessMessage1(m []byte) error {
	if s.initiator || s.state != start {
		return errors.New("edhoc: message_1 goes to a Responder that has not started")
	}
	r := newReader(m)
	method, err := r.intItem("message_1 METHOD")
	if err != nil {
		return err
	}
	if Method(method) != s.p.Method {
		return &ErrorMessage{Code: ErrUnspecified, Diagnostic: fmt.Sprintf("method %d not supported", method)}
	}
	it, err := r.next("message_1 SUITES_I")
	if err != nil {
		return err
	}
	var suites []int
	switch it.major {
	case majorUint, majorNeg:
		v, err := intOf(it, "SUITES_I")
		if err != nil {
			return err
		}
		suites = []int{int(v)}
	case majorArray:
		if err := decMode.Unmarshal(it.raw, &suites); err != nil || len(suites) < 2 {
			// RFC 9529 §4.1.3: a single suite is an int, not an array.
			return fmt.Errorf("message_1 SUITES_I: %w: an array of at least two suites, or one suite as an integer", errEncoding)
		}
	default:
		return fmt.Errorf("message_1 SUITES_I: want an integer or an array, got CBOR major type %d", it.major)
	}
	if selected := suites[len(suites)-1]; selected != s.p.Suite.ID {
		return &ErrorMessage{Code: ErrWrongSuite, Suites: []int{s.p.Suite.ID}}
	}
	for _, id := range suites[:len(suites)-1] {
		if id == s.p.Suite.ID {
			return &ErrorMessage{Code: ErrWrongSuite, Suites: []int{s.p.Suite.ID}}
		}
	}
	gx, err := r.bytesItem("message_1 G_X")
	if err != nil {
		return err
	}
	if s.peerEph, err = s.p.Suite.Curve.Decode(gx); err != nil {
		return fmt.Errorf("message_1 G_X: %w", err)
	}
	if s.cI, err = r.idItem("message_1 C_I"); err != nil {
		return err
	}
	if !r.empty() {
		return errors.New("message_1: EAD_1 is not supported (or the sequence has surplus items)")
	}
	s.gx, s.suitesI, s.hashMsg1, s.state = gx, suites, hash(m), gotM1
	return nil
}

// Message2 composes message_2 = (G_Y_CIPHERTEXT_2) (RFC 9528 §5.3.2).
func (s *Session) Message2() ([]byte, error) {
	if s.initiator || s.state != gotM1 {
		return nil, errors.New("edhoc: message_2 follows a processed message_1")
	}
	s.cR = s.p.ConnID
	if string(s.cR) == string(s.cI) {
		return nil, errors.New("edhoc: C_R must differ from C_I (the OSCORE Sender IDs, RFC 9528 Appendix A.1)")
	}
	if err := s.ephemeral(); err != nil {
		return nil, err
	}
	s.gy = s.p.Suite.Curve.Encode(s.eph.PublicKey())
	s.th2 = hash(bstr(s.gy), bstr(s.hashMsg1))
	gxy, err := s.dh(s.eph, s.peerEph)
	if err != nil {
		return nil, err
	}
	s.prk2e = extract(s.th2, gxy)
	s.prk3e2m = s.prk2e
	if s.p.Method.responderStatic() {
		grx, err := s.dh(s.p.DHKey, s.peerEph)
		if err != nil {
			return nil, err
		}
		s.prk3e2m = extract(kdf(s.prk2e, 1, s.th2, hashLength), grx)
	}
	idCredR, err := s.p.Cred.IDCred(s.p.Ref)
	if err != nil {
		return nil, err
	}
	sigOrMAC, err := s.authenticate(s.prk3e2m, 2, idCredR, s.th2, s.p.Cred.CRED)
	if err != nil {
		return nil, err
	}
	pt := seq(encodeID(s.cR), compactIDCred(idCredR), bstr(sigOrMAC))
	ks := kdf(s.prk2e, 0, s.th2, len(pt))
	ct := xor(pt, ks)
	s.th3 = hash(bstr(s.th2), pt, s.p.Cred.CRED)
	s.state = sentM2
	return bstr(append(append([]byte(nil), s.gy...), ct...)), nil
}

// authenticate computes MAC_2/3 and, for a signing party, signs it
// (RFC 9528 §5.3.2, §5.4.2): label 2 or 6.
func (s *Session) authenticate(prk []byte, label int, idCred, th, cred []byte) ([]byte, error) {
	context := seq(idCred, bstr(th), cred)
	if s.static() {
		return kdf(prk, label, context, s.p.Suite.MACLength), nil
	}
	mac := kdf(prk, label, context, hashLength)
	var sig []byte
	err := s.p.Stats.do(OpSign, func() error {
		var err error
		sig, err = s.p.Suite.Sign.Sign(s.p.SignKey, sigStructure(idCred, seq(bstr(th), cred), mac))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("signing: %w", err)
	}
	return sig, nil
}

// verifyPeer checks the peer's Signature_or_MAC.
func (s *Session) verifyPeer(prk []byte, label int, peerStatic bool, idCred, th []byte, cred *Credential, got []byte) error {
	context := seq(idCred, bstr(th), cred.CRED)
	if peerStatic {
		if len(got) != s.p.Suite.MACLength {
			return fmt.Errorf("MAC of %d bytes: the suite's MAC length is %d (RFC 9528 §9.3)", len(got), s.p.Suite.MACLength)
		}
		if !hmac.Equal(kdf(prk, label, context, s.p.Suite.MACLength), got) {
			return errors.New("the MAC does not verify")
		}
		return nil
	}
	mac := kdf(prk, label, context, hashLength)
	if cred.SignKey == nil {
		return errors.New("the peer's credential has no signature key")
	}
	return s.p.Stats.do(OpVerify, func() error {
		return s.p.Suite.Sign.Verify(cred.SignKey, sigStructure(idCred, seq(bstr(th), cred.CRED), mac), got)
	})
}

// resolve finds the peer's credential and checks its key fits the method.
func (s *Session) resolve(id PeerID, peerStatic bool) (*Credential, error) {
	c, err := s.p.Peer(id)
	if err != nil {
		return nil, err
	}
	if peerStatic && (c.DHKey == nil || c.DHKey.Curve() != s.curve()) {
		return nil, fmt.Errorf("the peer's credential has no %s static DH key", s.p.Suite.Curve.Name())
	}
	return c, nil
}

func (s *Session) curve() ecdh.Curve {
	if s.p.Suite.Curve.Name() == "X25519" {
		return ecdh.X25519()
	}
	return ecdh.P256()
}

// ProcessMessage2 reads message_2 at the Initiator (or the Responder's
// error message, returned as an *ErrorMessage).
func (s *Session) ProcessMessage2(m []byte) error {
	if !s.initiator || s.state != sentM1 {
		return errors.New("edhoc: message_2 goes to an Initiator that sent message_1")
	}
	if e, ok := asError(m); ok {
		return e
	}
	r := newReader(m)
	b, err := r.bytesItem("message_2 G_Y_CIPHERTEXT_2")
	if err != nil {
		return err
	}
	if !r.empty() {
		return fmt.Errorf("message_2: %w: one byte string (RFC 9528 §5.3.1), got more items", errEncoding)
	}
	n := len(s.gx)
	if len(b) <= n {
		return fmt.Errorf("message_2: %d bytes leave no ciphertext after the %d-byte G_Y", len(b), n)
	}
	s.gy = b[:n]
	if s.peerEph, err = s.p.Suite.Curve.Decode(s.gy); err != nil {
		return fmt.Errorf("message_2 G_Y: %w", err)
	}
	s.th2 = hash(bstr(s.gy), bstr(s.hashMsg1))
	gxy, err := s.dh(s.eph, s.peerEph)
	if err != nil {
		return err
	}
	s.prk2e = extract(s.th2, gxy)
	ct := b[n:]
	pt := xor(ct, kdf(s.prk2e, 0, s.th2, len(ct)))
	pr := newReader(pt)
	if s.cR, err = pr.idItem("PLAINTEXT_2 C_R"); err != nil {
		return err
	}
	if s.peerID, err = pr.readIDCred("PLAINTEXT_2 ID_CRED_R"); err != nil {
		return err
	}
	sigOrMAC, err := pr.bytesItem("PLAINTEXT_2 Signature_or_MAC_2")
	if err != nil {
		return err
	}
	if !pr.empty() {
		return errors.New("PLAINTEXT_2: EAD_2 is not supported (or the sequence has surplus items)")
	}
	respStatic := s.p.Method.responderStatic()
	if s.peer, err = s.resolve(s.peerID, respStatic); err != nil {
		return fmt.Errorf("message_2: %w", err)
	}
	s.prk3e2m = s.prk2e
	if respStatic {
		grx, err := s.dh(s.eph, s.peer.DHKey)
		if err != nil {
			return err
		}
		s.prk3e2m = extract(kdf(s.prk2e, 1, s.th2, hashLength), grx)
	}
	if err := s.verifyPeer(s.prk3e2m, 2, respStatic, s.peerID.Raw, s.th2, s.peer, sigOrMAC); err != nil {
		return fmt.Errorf("message_2: %w", err)
	}
	s.th3 = hash(bstr(s.th2), pt, s.peer.CRED)
	s.state = gotM2
	return nil
}

// aead3 is K_3 and IV_3 (RFC 9528 §5.4.2).
func (s *Session) aead3() (key, iv []byte) {
	return kdf(s.prk3e2m, 3, s.th3, keyLength), kdf(s.prk3e2m, 4, s.th3, nonceLength)
}

// Message3 composes message_3 = (CIPHERTEXT_3) (RFC 9528 §5.4.2).
func (s *Session) Message3() ([]byte, error) {
	if !s.initiator || s.state != gotM2 {
		return nil, errors.New("edhoc: message_3 follows a processed message_2")
	}
	s.prk4e3m = s.prk3e2m
	if s.p.Method.initiatorStatic() {
		giy, err := s.dh(s.p.DHKey, s.peerEph)
		if err != nil {
			return nil, err
		}
		s.prk4e3m = extract(kdf(s.prk3e2m, 5, s.th3, hashLength), giy)
	}
	idCredI, err := s.p.Cred.IDCred(s.p.Ref)
	if err != nil {
		return nil, err
	}
	sigOrMAC, err := s.authenticate(s.prk4e3m, 6, idCredI, s.th3, s.p.Cred.CRED)
	if err != nil {
		return nil, err
	}
	pt := seq(compactIDCred(idCredI), bstr(sigOrMAC))
	key, iv := s.aead3()
	var ct []byte
	err = s.p.Stats.do(OpSeal, func() error {
		a, err := newAEAD(key)
		if err == nil {
			ct = a.Seal(nil, iv, pt, encStructure(s.th3))
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	s.finish(pt, s.p.Cred.CRED)
	s.state = sentM3
	return bstr(ct), nil
}

// finish computes TH_4, PRK_out and PRK_exporter (RFC 9528 §4.1.3).
func (s *Session) finish(pt3, credI []byte) {
	s.th4 = hash(bstr(s.th3), pt3, credI)
	s.prkOut = kdf(s.prk4e3m, 7, s.th4, hashLength)
	s.prkExp = kdf(s.prkOut, 10, nil, hashLength)
}

// ProcessMessage3 reads message_3 at the Responder.
func (s *Session) ProcessMessage3(m []byte) error {
	if s.initiator || s.state != sentM2 {
		return errors.New("edhoc: message_3 goes to a Responder that sent message_2")
	}
	r := newReader(m)
	ct, err := r.bytesItem("message_3 CIPHERTEXT_3")
	if err != nil {
		return err
	}
	if !r.empty() {
		return fmt.Errorf("message_3: %w: one byte string, got more items", errEncoding)
	}
	key, iv := s.aead3()
	var pt []byte
	err = s.p.Stats.do(OpOpen, func() error {
		a, err := newAEAD(key)
		if err == nil {
			pt, err = a.Open(nil, iv, ct, encStructure(s.th3))
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("message_3: CIPHERTEXT_3 does not decrypt: %w", err)
	}
	pr := newReader(pt)
	if s.peerID, err = pr.readIDCred("PLAINTEXT_3 ID_CRED_I"); err != nil {
		return err
	}
	sigOrMAC, err := pr.bytesItem("PLAINTEXT_3 Signature_or_MAC_3")
	if err != nil {
		return err
	}
	if !pr.empty() {
		return errors.New("PLAINTEXT_3: EAD_3 is not supported (or the sequence has surplus items)")
	}
	initStatic := s.p.Method.initiatorStatic()
	if s.peer, err = s.resolve(s.peerID, initStatic); err != nil {
		return fmt.Errorf("message_3: %w", err)
	}
	s.prk4e3m = s.prk3e2m
	if initStatic {
		giy, err := s.dh(s.eph, s.peer.DHKey)
		if err != nil {
			return err
		}
		s.prk4e3m = extract(kdf(s.prk3e2m, 5, s.th3, hashLength), giy)
	}
	if err := s.verifyPeer(s.prk4e3m, 6, initStatic, s.peerID.Raw, s.th3, s.peer, sigOrMAC); err != nil {
		return fmt.Errorf("message_3: %w", err)
	}
	s.finish(pt, s.peer.CRED)
	s.state = completed
	return nil
}

// aead4 is K_4 and IV_4 (RFC 9528 §5.5.2).
func (s *Session) aead4() (key, iv []byte) {
	return kdf(s.prk4e3m, 8, s.th4, keyLength), kdf(s.prk4e3m, 9, s.th4, nonceLength)
}

// Message4 composes the optional message_4 = (CIPHERTEXT_4) (RFC 9528
// §5.5.2) for key confirmation when no application message follows.
func (s *Session) Message4() ([]byte, error) {
	if s.initiator || s.state != completed {
		return nil, errors.New("edhoc: message_4 follows a processed message_3")
	}
	key, iv := s.aead4()
	a, err := newAEAD(key)
	if err != nil {
		return nil, err
	}
	return bstr(a.Seal(nil, iv, nil, encStructure(s.th4))), nil
}

// ProcessMessage4 reads message_4 at the Initiator.
func (s *Session) ProcessMessage4(m []byte) error {
	if !s.initiator || s.state != sentM3 {
		return errors.New("edhoc: message_4 goes to an Initiator that sent message_3")
	}
	r := newReader(m)
	ct, err := r.bytesItem("message_4 CIPHERTEXT_4")
	if err != nil {
		return err
	}
	key, iv := s.aead4()
	a, err := newAEAD(key)
	if err != nil {
		return err
	}
	pt, err := a.Open(nil, iv, ct, encStructure(s.th4))
	if err != nil {
		return fmt.Errorf("message_4 does not decrypt: %w", err)
	}
	if len(pt) != 0 || !r.empty() {
		return errors.New("message_4: EAD_4 is not supported")
	}
	s.state = completed
	return nil
}

// Complete reports whether the session has derived PRK_out: the
// Responder after message_3, the Initiator after composing message_3
// (RFC 9528 §5.4.2: it may derive keys then; key confirmation comes with
// the first message from the Responder).
func (s *Session) Complete() bool { return s.prkOut != nil }

// PRKOut is the session's output key (RFC 9528 §4.1.3).
func (s *Session) PRKOut() []byte { return append([]byte(nil), s.prkOut...) }

// Exporter is EDHOC_Exporter(label, context, length) (RFC 9528 §4.2.1).
func (s *Session) Exporter(label int, context []byte, length int) ([]byte, error) {
	if s.prkExp == nil {
		return nil, errors.New("edhoc: the session has not derived PRK_out yet")
	}
	return kdf(s.prkExp, label, context, length), nil
}

// KeyUpdate replaces PRK_out with EDHOC_KDF(PRK_out, 11, context,
// hash_length) and derives PRK_exporter again (RFC 9528 Appendix H).
func (s *Session) KeyUpdate(context []byte) error {
	if s.prkOut == nil {
		return errors.New("edhoc: no PRK_out to update")
	}
	s.prkOut = kdf(s.prkOut, 11, context, hashLength)
	s.prkExp = kdf(s.prkOut, 10, nil, hashLength)
	return nil
}

// ConnIDs returns C_I and C_R.
func (s *Session) ConnIDs() (cI, cR []byte) { return s.cI, s.cR }

// Peer returns the peer's credential once authenticated.
func (s *Session) Peer() *Credential { return s.peer }

// OSCORE is the security context EDHOC establishes (RFC 9528 Appendix
// A.1): Master Secret and Salt from the exporter with labels 0 and 1 (16
// and 8 bytes for AES-CCM-16-64-128), and the Sender/Recipient IDs from
// the connection identifiers (the client's Sender ID is C_R).
type OSCORE struct {
	MasterSecret, MasterSalt []byte
	SenderID, RecipientID    []byte
	AEAD, Hash               int
}

// OSCOREContext derives the OSCORE parameters for this party.
func (s *Session) OSCOREContext() (OSCORE, error) {
	secret, err := s.Exporter(0, nil, keyLength)
	if err != nil {
		return OSCORE{}, err
	}
	salt, _ := s.Exporter(1, nil, 8)
	o := OSCORE{MasterSecret: secret, MasterSalt: salt, AEAD: s.p.Suite.AppAEAD, Hash: s.p.Suite.AppHash}
	if s.initiator {
		o.SenderID, o.RecipientID = s.cR, s.cI
	} else {
		o.SenderID, o.RecipientID = s.cI, s.cR
	}
	return o, nil
}

func xor(a, b []byte) []byte {
	out := make([]byte, len(a))
	for i := range a {
		out[i] = a[i] ^ b[i]
	}
	return out
}

// Error codes (RFC 9528 §6.1).
const (
	ErrUnspecified = 1
	ErrWrongSuite  = 2
)

// ErrorMessage is the EDHOC error message (ERR_CODE, ERR_INFO) (RFC 9528
// §6): code 1 with a diagnostic text, code 2 with the Responder's suites.
type ErrorMessage struct {
	Code       int
	Diagnostic string
	Suites     []int
}

func (e *ErrorMessage) Error() string {
	if e.Code == ErrWrongSuite {
		return fmt.Sprintf("EDHOC error 2: wrong selected cipher suite; the Responder supports %v", e.Suites)
	}
	return fmt.Sprintf("EDHOC error %d: %s", e.Code, e.Diagnostic)
}

// Marshal encodes the error message.
func (e *ErrorMessage) Marshal() []byte {
	switch e.Code {
	case ErrWrongSuite:
		if len(e.Suites) == 1 {
			return seq(marshal(e.Code), marshal(e.Suites[0]))
		}
		return seq(marshal(e.Code), marshal(e.Suites))
	case 0:
		return marshal(0)
	}
	return seq(marshal(e.Code), marshal(e.Diagnostic))
}

// asError decodes m as an error message if it is one: an error starts
// with an integer, message_2 with a byte string (RFC 9528 §6).
func asError(m []byte) (*ErrorMessage, bool) {
	r := newReader(m)
	code, err := r.intItem("ERR_CODE")
	if err != nil {
		return nil, false
	}
	e := &ErrorMessage{Code: int(code)}
	it, err := r.next("ERR_INFO")
	if err != nil {
		return e, true
	}
	switch v := it.value.(type) {
	case string:
		e.Diagnostic = v
	case uint64:
		e.Suites = []int{int(v)}
	default:
		var suites []int
		if decMode.Unmarshal(it.raw, &suites) == nil {
			e.Suites = suites
		}
	}
	return e, true
}

// ParseError decodes an error message.
func ParseError(m []byte) (*ErrorMessage, error) {
	e, ok := asError(m)
	if !ok {
		return nil, errors.New("not an EDHOC error message: it does not start with an integer")
	}
	return e, nil
}
