package sensor

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdh"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/internal/edhoc"
	"github.com/cryptocost/cryptocost/internal/oscore"
	"github.com/cryptocost/cryptocost/result"
	"github.com/plgd-dev/go-coap/v3/message"
	"github.com/plgd-dev/go-coap/v3/message/codes"
	"github.com/plgd-dev/go-coap/v3/message/pool"
	"github.com/plgd-dev/go-coap/v3/mux"
	udpcoder "github.com/plgd-dev/go-coap/v3/udp/coder"
)

// EDHOC and OSCORE, the IETF's answer for constrained devices: the sensor
// (EDHOC Initiator, CoAP client) runs EDHOC (RFC 9528) with the proxy
// (Responder, CoAP server) over CoAP (RFC 9528 Appendix A.2), both derive
// an OSCORE security context (Appendix A.1), and every later request and
// response is protected with OSCORE (RFC 8613). The third EDHOC message
// rides with the first OSCORE request, the registration (RFC 9668 §3),
// so the session costs two round trips, the registration included.
//
// Credentials, in S004's spirit: the sensor sends its own CCS by value
// (ID_CRED_I = kccs: sub = its endpoint name, cnf = its public key), and
// the proxy authorises the identity h(COSE_Key | name) against its list,
// as it does for a registered pk; the sensor knows the proxy's CCS and the
// proxy names it by kid (ID_CRED_R = {4: kid}), the smallest message_2.
// OSCORE protects the hop to the proxy, which is the OSCORE endpoint: the
// application, which reads through the proxy, can only trust it (as with
// DTLS).

// EDHOCOSCORE is the protection's EDHOC choice: the method.
type EDHOCOSCORE struct {
	Method edhoc.Method
	// Name is the variant name part: "static-dh" or "sig".
	Name string
}

// EDHOCCred is how the sensor's message_3 names its credential: by value
// (kccs, the default: the proxy learns the key from the message) or by
// reference (kid: the installer provisioned the sensor's CCS at the proxy,
// as RFC 9529 §3 and the IETF comparison assume).
type EDHOCCred struct {
	Ref  edhoc.Reference
	Name string
}

// EDHOCCreds are the sensor credential references the scenario runs.
var EDHOCCreds = []*EDHOCCred{{Ref: edhoc.ByValueCCS, Name: "kccs"}, {Ref: edhoc.ByKID, Name: "kid"}}

// LookupEDHOCCred returns the reference named "kccs" or "kid".
func LookupEDHOCCred(name string) (*EDHOCCred, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, c := range EDHOCCreds {
		if n == c.Name || (n == "ccs" && c.Ref == edhoc.ByValueCCS) {
			return c, nil
		}
	}
	return nil, fmt.Errorf("unknown EDHOC credential reference %q: want kccs (the CCS by value) or kid (by reference)", name)
}

// EDHOCMethods are the methods the scenario runs: static DH on both sides
// (method 3, MACs only: the smallest messages) and signatures on both
// sides (method 0).
var EDHOCMethods = []*EDHOCOSCORE{{Method: 3, Name: "static-dh"}, {Method: 0, Name: "sig"}}

// LookupEDHOCMethod returns the method named "static-dh"/"3" or "sig"/"0".
func LookupEDHOCMethod(name string) (*EDHOCOSCORE, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, m := range EDHOCMethods {
		if n == m.Name || n == strconv.Itoa(int(m.Method)) {
			return m, nil
		}
	}
	return nil, fmt.Errorf("unknown EDHOC method %q: want static-dh (3) or sig (0)", name)
}

// edhocSuite is the cipher suite for the sensor's algorithm: ES256 with
// P-256 is suite 2, EdDSA with X25519 suite 0 (RFC 9528 §10.2).
func edhocSuite(a *Alg) *edhoc.Suite {
	if a != nil && a.Name == "EdDSA" {
		return edhoc.Suite0
	}
	return edhoc.Suite2
}

// Content-Formats of EDHOC over CoAP (RFC 9528 §10.9):
// application/edhoc+cbor-seq (64) and application/cid-edhoc+cbor-seq (65).
const (
	contentFormatEDHOC    message.MediaType = 64
	contentFormatCIDEDHOC message.MediaType = 65
)

// edhocPath is the EDHOC resource (RFC 9528 §10.10, Appendix A.2).
const edhocPath = "/.well-known/edhoc"

// sensorCI is the sensor's connection identifier C_I: 0x37, sent as the
// one-byte integer -24 (RFC 9528 §3.3.2); it is the proxy's OSCORE Sender
// ID towards this sensor.
var sensorCI = []byte{0x37}

// proxyKID is the kid of the proxy's CCS.
var proxyKID = []byte{0x32}

// EDHOCKeys are a party's EDHOC credential and key.
type EDHOCKeys struct {
	Cred   *edhoc.Credential
	Signer crypto.Signer
	DH     *ecdh.PrivateKey
}

// newEDHOCKeys makes a party's credential: for a signing party its
// signature key (the sensor's own key pair, or a new one), for a static
// DH party a new static DH key, in a CCS with sub and kid.
func newEDHOCKeys(suite *edhoc.Suite, static bool, sub string, kid []byte, own *KeyPair) (*EDHOCKeys, error) {
	k := &EDHOCKeys{}
	var coseKey map[int]any
	if static {
		dh, err := suite.Curve.GenerateKey(rand.Reader)
		if err != nil {
			return nil, err
		}
		k.DH, coseKey = dh, suite.Curve.COSEKey(dh.PublicKey(), kid)
	} else {
		if own == nil {
			return nil, errors.New("a signing EDHOC party needs a key pair")
		}
		var err error
		k.Signer = own.Signer
		if coseKey, err = suite.Sign.COSEKey(own.Signer.Public(), kid); err != nil {
			return nil, err
		}
	}
	cred, err := edhoc.NewCCS(sub, coseKey)
	if err != nil {
		return nil, err
	}
	k.Cred = cred
	return k, nil
}

// EDHOCConfig is what the proxy needs to run EDHOC.
type EDHOCConfig struct {
	Suite  *edhoc.Suite
	Method edhoc.Method
	Keys   *EDHOCKeys
	// Provisioned are sensors' CCSs the installer gave the proxy, for
	// sensors that name theirs by kid.
	Provisioned []*edhoc.Credential
}

// edhocResponder starts a Responder session for a new sensor.
func (p *Proxy) edhocResponder() (*edhoc.Session, []byte, error) {
	p.mu.Lock()
	cR := []byte{byte(p.nextCR)}
	p.nextCR = (p.nextCR + 1) % 0x18 // one-byte integer identifiers 0..23
	p.mu.Unlock()
	if bytes.Equal(cR, sensorCI) {
		cR = []byte{0x18}
	}
	c := p.cfg.EDHOC
	s, err := edhoc.NewResponder(edhoc.Party{Suite: c.Suite, Method: c.Method, ConnID: cR, Cred: c.Keys.Cred, Ref: edhoc.ByKID,
		SignKey: c.Keys.Signer, DHKey: c.Keys.DH, Peer: p.resolveSensor})
	return s, cR, err
}

// resolveSensor authorises a sensor's credential: sent by value (kccs),
// its identity h(COSE_Key | sub) must be on the installers' list.
func (p *Proxy) resolveSensor(id edhoc.PeerID) (*edhoc.Credential, error) {
	var c *edhoc.Credential
	switch {
	case id.CCS != nil:
		var err error
		if c, err = edhoc.ParseCCS(id.CCS); err != nil {
			return nil, err
		}
	case id.KID != nil:
		var err error
		if c, err = edhoc.ResolveFrom(p.cfg.EDHOC.Provisioned...)(id); err != nil {
			return nil, fmt.Errorf("no provisioned credential with kid %x", id.KID)
		}
	default:
		return nil, errors.New("the proxy knows sensors by their CCS, sent (kccs) or provisioned (kid)")
	}
	if !p.cfg.Authorised.Allows(NewIdentity(c.COSEKey, c.Subject)) {
		p.mu.Lock()
		p.stats.Rejected["identity not authorised"]++
		p.mu.Unlock()
		return nil, fmt.Errorf("identity %s is not authorised", NewIdentity(c.COSEKey, c.Subject))
	}
	return c, nil
}

// oscorePeer is an OSCORE security context the proxy shares with a sensor
// and who the EDHOC session authenticated.
type oscorePeer struct {
	ctx      *oscore.Context
	identity Identity
	name     string
}

// edhocMessage1 answers message_1 (POST /.well-known/edhoc, payload true
// followed by message_1) with message_2 in a 2.04 (RFC 9528 A.2).
func (p *Proxy) edhocMessage1(w mux.ResponseWriter, body []byte) {
	if len(body) < 2 || body[0] != 0xf5 {
		p.reject(w, codes.BadRequest, "EDHOC message_1 must follow the CBOR simple value true (RFC 9528 A.2)")
		return
	}
	s, cR, err := p.edhocResponder()
	if err != nil {
		p.reject(w, codes.InternalServerError, "EDHOC: "+err.Error())
		return
	}
	if err := s.ProcessMessage1(body[1:]); err != nil {
		p.edhocError(w, err)
		return
	}
	m2, err := s.Message2()
	if err != nil {
		p.edhocError(w, err)
		return
	}
	p.mu.Lock()
	if len(p.edhocSessions) >= maxEDHOCSessions {
		p.mu.Unlock()
		p.reject(w, codes.ServiceUnavailable, "too many EDHOC sessions in progress")
		return
	}
	p.edhocSessions[string(cR)] = s
	p.mu.Unlock()
	_ = w.SetResponse(codes.Changed, contentFormatEDHOC, bytes.NewReader(m2))
}

// maxEDHOCSessions bounds the sessions a flood of message_1 can leave
// waiting for message_3.
const maxEDHOCSessions = 64

// edhocError answers with an EDHOC error message (RFC 9528 §6, A.2: 4.00
// with Content-Format 64) and counts the reason.
func (p *Proxy) edhocError(w mux.ResponseWriter, err error) {
	var e *edhoc.ErrorMessage
	if !errors.As(err, &e) {
		e = &edhoc.ErrorMessage{Code: edhoc.ErrUnspecified, Diagnostic: err.Error()}
	}
	p.mu.Lock()
	p.stats.Rejected["EDHOC: "+shortReason(err.Error())]++
	p.mu.Unlock()
	_ = w.SetResponse(codes.BadRequest, contentFormatEDHOC, bytes.NewReader(e.Marshal()))
}

func shortReason(s string) string {
	if i := strings.LastIndex(s, ": "); i >= 0 {
		return s[i+2:]
	}
	return s
}

// serveOSCORE handles a request with the OSCORE option: completes EDHOC
// first if it carries the EDHOC option (RFC 9668 §3.3), verifies and
// decrypts it, routes the inner request, and protects the response.
func (p *Proxy) serveOSCORE(w mux.ResponseWriter, r *mux.Message, body []byte) {
	opts := r.Options()
	kid, ok := oscore.RequestKID(opts)
	if !ok {
		p.reject(w, codes.BadOption, "Failed to decode COSE")
		return
	}
	if opts.HasOption(oscore.OptionEDHOC) {
		m3, ct, err := oscore.SplitCombined(body)
		if err != nil {
			p.reject(w, codes.BadRequest, "EDHOC + OSCORE: "+err.Error())
			return
		}
		p.mu.Lock()
		s := p.edhocSessions[string(kid)]
		delete(p.edhocSessions, string(kid))
		p.mu.Unlock()
		if s == nil {
			p.reject(w, codes.BadRequest, "EDHOC + OSCORE: no EDHOC session for this C_R")
			return
		}
		if err := s.ProcessMessage3(m3); err != nil {
			p.edhocError(w, err)
			return
		}
		params, err := s.OSCOREContext()
		if err != nil {
			p.reject(w, codes.InternalServerError, err.Error())
			return
		}
		ctx, err := oscore.NewContext(params.MasterSecret, params.MasterSalt, params.SenderID, params.RecipientID, nil)
		if err != nil {
			p.reject(w, codes.InternalServerError, err.Error())
			return
		}
		peer := s.Peer()
		p.mu.Lock()
		p.oscorePeers[string(kid)] = &oscorePeer{ctx: ctx, identity: NewIdentity(peer.COSEKey, peer.Subject), name: peer.Subject}
		p.stats.EDHOCMessage3 = append(p.stats.EDHOCMessage3, len(m3))
		p.mu.Unlock()
		body = ct
		var rest message.Options
		for _, o := range opts {
			if o.ID != oscore.OptionEDHOC {
				rest = append(rest, o)
			}
		}
		opts = rest
	}
	p.mu.Lock()
	op := p.oscorePeers[string(kid)]
	p.mu.Unlock()
	if op == nil {
		p.reject(w, codes.Unauthorized, "Security context not found")
		return
	}
	inner, bind, err := op.ctx.UnprotectRequest(oscore.Protected{Code: r.Code(), Options: opts, Payload: body})
	switch {
	case errors.Is(err, oscore.ErrReplay):
		p.reject(w, codes.Unauthorized, "Replay detected")
		return
	case errors.Is(err, oscore.ErrDecrypt):
		p.reject(w, codes.BadRequest, "Decryption failed")
		return
	case err != nil:
		p.reject(w, codes.BadOption, "Failed to decode COSE")
		return
	}
	p.mu.Lock()
	p.stats.OSCOREInner = append(p.stats.OSCOREInner, OSCORESizes{
		Inner:      CoAPMessage{TokenBytes: len(r.Token()), Options: inner.Options, PayloadBytes: len(inner.Payload)}.Size(),
		Ciphertext: len(body), TokenBytes: len(r.Token())})
	p.mu.Unlock()
	im := pool.NewMessage(r.Context())
	im.SetCode(inner.Code)
	im.SetToken(r.Token())
	im.ResetOptionsTo(inner.Options)
	if len(inner.Payload) > 0 {
		im.SetBody(bytes.NewReader(inner.Payload))
	}
	cw := &captureWriter{conn: w.Conn()}
	p.route(cw, &mux.Message{Message: im}, inner.Payload, peer{secure: true, edhoc: true, pskIdentity: op.name, certIdentity: &op.identity})
	out, err := op.ctx.ProtectResponse(cw.code, cw.options(), cw.body, bind)
	if err != nil {
		p.reject(w, codes.InternalServerError, err.Error())
		return
	}
	m := w.Message()
	m.SetCode(out.Code)
	m.ResetOptionsTo(out.Options)
	m.SetBody(bytes.NewReader(out.Payload))
}

// OSCORESizes are one OSCORE request's sizes at the proxy: the inner CoAP
// message (RFC 7252 §3, the token included) and the ciphertext, for the
// byte check.
type OSCORESizes struct {
	Inner, Ciphertext, TokenBytes int
}

// captureWriter collects the inner response the proxy's handlers write,
// for OSCORE to protect.
type captureWriter struct {
	conn    mux.Conn
	code    codes.Code
	cf      message.MediaType
	hasBody bool
	body    []byte
	opts    message.Options
	msg     *pool.Message
}

func (c *captureWriter) SetResponse(code codes.Code, cf message.MediaType, d io.ReadSeeker, opts ...message.Option) error {
	c.code, c.cf, c.opts = code, cf, append(message.Options(nil), opts...)
	if d != nil {
		b, err := io.ReadAll(d)
		if err != nil {
			return err
		}
		c.hasBody, c.body = true, b
	}
	return nil
}
func (c *captureWriter) Conn() mux.Conn             { return c.conn }
func (c *captureWriter) SetMessage(m *pool.Message) { c.msg = m }
func (c *captureWriter) Message() *pool.Message {
	if c.msg == nil {
		c.msg = pool.NewMessage(context.Background())
	}
	return c.msg
}

// options are the inner response's options, Content-Format included when
// there is a body (as go-coap's SetResponse adds it).
func (c *captureWriter) options() message.Options {
	o := append(message.Options(nil), c.opts...)
	if c.hasBody {
		o = append(o, message.Option{ID: message.ContentFormat, Value: uintBytes(uint32(c.cf))})
	}
	return o
}

// uintBytes is a CoAP uint option value: big-endian, no leading zeros, 0
// as empty (RFC 7252 §3.2).
func uintBytes(v uint32) []byte {
	var b []byte
	for ; v > 0; v >>= 8 {
		b = append([]byte{byte(v)}, b...)
	}
	return b
}

// EDHOCInitiator is the sensor's EDHOC side and the OSCORE context it
// derives.
type EDHOCInitiator struct {
	Session *edhoc.Session
	Stats   *edhoc.Stats
	// Sizes of message_1, message_2 and message_3 as EDHOC defines them
	// (without CoAP framing).
	Message1, Message2, Message3 int
	// Message2Response is the CoAP response carrying message_2, sized by
	// RFC 7252 §3 (the byte check's count of the session's downlink).
	Message2Response int
	ctx              *oscore.Context
	pending3         []byte
}

// handshakeEDHOC runs message_1 and message_2 and prepares message_3 and
// the OSCORE context; message_3 goes with the first OSCORE request.
func (s *Sensor) handshakeEDHOC(ctx context.Context) error {
	e := s.EDHOC
	m1, err := e.Session.Message1()
	if err != nil {
		return err
	}
	e.Message1 = len(m1)
	ctx, cancel := context.WithTimeout(ctx, sensorTimeout)
	defer cancel()
	req, err := s.conn.NewPostRequest(ctx, edhocPath, contentFormatCIDEDHOC, bytes.NewReader(append([]byte{0xf5}, m1...)))
	if err != nil {
		return err
	}
	defer s.conn.ReleaseMessage(req)
	resp, err := s.conn.Do(req)
	if err != nil {
		return fmt.Errorf("sensor %s: EDHOC message_1: %w", s.Name, err)
	}
	defer s.conn.ReleaseMessage(resp)
	m2, _ := resp.ReadBody()
	if resp.Code() != codes.Changed {
		if em, err := edhoc.ParseError(m2); err == nil {
			return fmt.Errorf("sensor %s: EDHOC: the proxy answered %v: %w", s.Name, resp.Code(), em)
		}
		return fmt.Errorf("sensor %s: EDHOC: the proxy answered %v %s", s.Name, resp.Code(), m2)
	}
	e.Message2 = len(m2)
	e.Message2Response = CoAPMessage{TokenBytes: len(resp.Token()), Options: resp.Options(), PayloadBytes: len(m2)}.Size()
	if err := e.Session.ProcessMessage2(m2); err != nil {
		return fmt.Errorf("sensor %s: EDHOC message_2: %w", s.Name, err)
	}
	m3, err := e.Session.Message3()
	if err != nil {
		return err
	}
	e.Message3, e.pending3 = len(m3), m3
	params, err := e.Session.OSCOREContext()
	if err != nil {
		return err
	}
	e.ctx, err = oscore.NewContext(params.MasterSecret, params.MasterSalt, params.SenderID, params.RecipientID, nil)
	return err
}

// doOSCORE protects req with OSCORE (adding message_3 and the EDHOC option
// to the first), sends it, and verifies and decrypts the response.
func (s *Sensor) doOSCORE(req *pool.Message) (Exchange, error) {
	e := s.EDHOC
	body, _ := req.ReadBody()
	opts := append(message.Options(nil), req.Options()...)
	p, bind, err := e.ctx.ProtectRequest(req.Code(), opts, body)
	if err != nil {
		return Exchange{}, err
	}
	payload, outer := p.Payload, p.Options
	if e.pending3 != nil {
		payload = oscore.CombinedPayload(e.pending3, p.Payload)
		outer = append(outer, message.Option{ID: oscore.OptionEDHOC, Value: []byte{}})
		e.pending3 = nil
	}
	req.SetCode(p.Code)
	req.ResetOptionsTo(outer)
	req.SetBody(bytes.NewReader(payload))
	start := time.Now()
	resp, err := s.conn.Do(req)
	if err != nil {
		return Exchange{}, fmt.Errorf("sensor %s: %w", s.Name, err)
	}
	defer s.conn.ReleaseMessage(resp)
	rb, _ := resp.ReadBody()
	x := Exchange{Latency: time.Since(start),
		ResponseBytes: CoAPMessage{TokenBytes: len(resp.Token()), Options: resp.Options(), PayloadBytes: len(rb)}.Size()}
	if !resp.Options().HasOption(oscore.OptionOSCORE) {
		// An unprotected error from the OSCORE layer (RFC 8613 §8.2) or an
		// EDHOC error message (RFC 9528 §6, Content-Format 64).
		x.Code, x.Diagnostic = resp.Code(), string(rb)
		if cf, err := resp.ContentFormat(); err == nil && cf == contentFormatEDHOC {
			if em, err := edhoc.ParseError(rb); err == nil {
				x.Diagnostic = em.Error()
			}
		}
		if !x.Rejected() {
			return x, fmt.Errorf("sensor %s: an unprotected %v answered an OSCORE request", s.Name, resp.Code())
		}
		return x, nil
	}
	inner, err := e.ctx.UnprotectResponse(oscore.Protected{Code: resp.Code(), Options: resp.Options(), Payload: rb}, bind)
	if err != nil {
		return x, fmt.Errorf("sensor %s: %w", s.Name, err)
	}
	x.Code = inner.Code
	if x.Rejected() {
		x.Diagnostic = string(inner.Payload)
	}
	for _, o := range inner.Options {
		if o.ID == message.LocationPath {
			x.Location = append(x.Location, string(o.Value))
		}
	}
	return x, nil
}

// decodeCoAP decodes a datagram as a CoAP message (RFC 7252 §3).
func decodeCoAP(b []byte) (message.Message, bool) {
	m := message.Message{Options: make(message.Options, 0, 16)}
	if _, err := udpcoder.DefaultCoder.Decode(b, &m); err != nil {
		return m, false
	}
	return m, true
}

// oscoreLabel names what an edhoc-oscore datagram carried.
func oscoreLabel(d Datagram) string {
	m, ok := decodeCoAP(d.Data)
	switch {
	case !ok:
		return "not CoAP"
	case m.Options.HasOption(oscore.OptionEDHOC):
		return "EDHOC message_3 + OSCORE request"
	case m.Options.HasOption(oscore.OptionOSCORE) && d.Dir == result.Up:
		return "OSCORE request"
	case m.Options.HasOption(oscore.OptionOSCORE):
		return "OSCORE response"
	case d.Dir == result.Up:
		if cf, err := m.Options.ContentFormat(); err == nil && cf == contentFormatCIDEDHOC {
			return "EDHOC message_1"
		}
		return "CoAP request"
	}
	if cf, err := m.Options.ContentFormat(); err == nil && cf == contentFormatEDHOC && m.Code == codes.Changed {
		return "EDHOC message_2"
	}
	return "CoAP response"
}

// oscoreOps are the sensor's operations: EDHOC's, counted and timed in
// place by the EDHOC implementation (once per session), and OSCORE's AEAD
// per reading, counted from the OSCORE messages on the wire.
func (s *Session) oscoreOps(e *EDHOCInitiator, reps int) []Op {
	v := s.Variant
	suite := edhocSuite(v.Alg)
	curve := "ECDH-P256"
	if suite == edhoc.Suite0 {
		curve = "X25519"
	}
	const how = "counted in place by the sensor's EDHOC implementation (internal/edhoc), once per session"
	var ops []Op
	for _, k := range []struct{ op, name, scheme string }{
		{edhoc.OpKeygen, "edhoc-ecdh-keygen", curve},
		{edhoc.OpDH, "edhoc-ecdh-derive", curve},
		{edhoc.OpSign, "edhoc-sign", v.Alg.Scheme},
		{edhoc.OpVerify, "edhoc-verify", v.Alg.Scheme},
		{edhoc.OpSeal, "edhoc-aead-seal", "AES-128-CCM-8"},
	} {
		n := e.Stats.Count[k.op]
		if n == 0 {
			continue
		}
		ns := e.Stats.Ns[k.op]
		ops = append(ops, Op{Party: "sensor", Name: k.name, Scheme: k.scheme, Per: "session", Count: float64(n), CountLabel: result.Measured,
			CountHow: how, Samples: ns, TimeHow: fmt.Sprintf("timed in place: %d operations in the sensor's EDHOC session", len(ns)), Size: e.Message3})
	}
	seal, open := 0, 0
	for _, w := range s.Reading {
		for _, d := range w.Of(s.Datagrams) {
			if m, ok := decodeCoAP(d.Data); ok && m.Options.HasOption(oscore.OptionOSCORE) {
				if d.Dir == result.Up {
					seal++
				} else {
					open++
				}
			}
		}
	}
	n := float64(len(s.Reading))
	const rec = "OSCORE messages (CoAP messages with the OSCORE option, RFC 8613 §2) the sensor sent (seal) or received (open), counted on the wire; AES-CCM-16-64-128 costs what AES-128-CCM-8 does (one AES-128 CCM with an 8-byte tag; the nonce is 13 bytes instead of 12)"
	ops = append(ops,
		Op{Party: "sensor", Name: "aead-seal", Scheme: "AES-128-CCM-8", Per: "reading", Count: float64(seal) / n, CountLabel: result.Measured, CountHow: rec, Size: s.PayloadBytes + 8},
		Op{Party: "sensor", Name: "aead-open", Scheme: "AES-128-CCM-8", Per: "reading", Count: float64(open) / n, CountLabel: result.Measured, CountHow: rec, Size: 1},
	)
	for i := range ops {
		o := &ops[i]
		if o.Samples != nil {
			continue
		}
		samples, how, err := TimeSeparately(o.Scheme, opVerb(o.Name), o.Size, reps)
		if err != nil {
			o.TimeHow = "not timed: " + err.Error()
			continue
		}
		o.Samples, o.TimeHow = samples, how
	}
	return ops
}
