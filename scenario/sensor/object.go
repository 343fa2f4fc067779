package sensor

import (
	"crypto"
	"crypto/rand"
	"fmt"
	"strings"

	"github.com/go-jose/go-jose/v4"
	"github.com/plgd-dev/go-coap/v3/message"
	"github.com/veraison/go-cose"
)

// ObjectFormat protects a reading as a signed data object (S004's
// data-object security): the signature travels with the reading through
// proxies and caches, and anyone holding the registered public key
// verifies it end to end.
type ObjectFormat interface {
	// Name is the protection's command-line name ("cose-sign1").
	Name() string
	// ContentFormat is the CoAP Content-Format of the protected object.
	ContentFormat() message.MediaType
	// Sign wraps payload (a SenML pack) in a signed object.
	Sign(k *KeyPair, payload []byte) ([]byte, error)
	// Verify checks obj against the public key and returns the payload.
	Verify(pub crypto.PublicKey, alg *Alg, obj []byte) ([]byte, error)
}

// maxObjectBytes bounds a signed object a proxy or application parses: a
// reading's object is about 100 bytes; a CoAP message over 802.15.4 is
// kept under 1 kB anyway (RFC 7252 §4.6 recommends messages fit the path
// MTU).
const maxObjectBytes = 1024

// coseSign1 is COSE_Sign1 (RFC 9052 §4.2), tagged (CBOR tag 18), with only
// the algorithm in the protected header — the encoding the sensor-reading
// model counts (9 bytes besides payload and signature).
type coseSign1 struct{}

func (coseSign1) Name() string                     { return "cose-sign1" }
func (coseSign1) ContentFormat() message.MediaType { return message.AppCoseSign1 }

func (coseSign1) Sign(k *KeyPair, payload []byte) ([]byte, error) {
	s, err := cose.NewSigner(k.Alg.COSE, k.Signer)
	if err != nil {
		return nil, fmt.Errorf("COSE signer: %w", err)
	}
	hdr := cose.Headers{Protected: cose.ProtectedHeader{cose.HeaderLabelAlgorithm: k.Alg.COSE}}
	obj, err := cose.Sign1(rand.Reader, s, hdr, payload, nil)
	if err != nil {
		return nil, fmt.Errorf("COSE_Sign1: %w", err)
	}
	return obj, nil
}

func (coseSign1) Verify(pub crypto.PublicKey, alg *Alg, obj []byte) ([]byte, error) {
	if len(obj) > maxObjectBytes {
		return nil, fmt.Errorf("COSE_Sign1 of %d bytes: at most %d", len(obj), maxObjectBytes)
	}
	var msg cose.Sign1Message
	if err := msg.UnmarshalCBOR(obj); err != nil {
		return nil, fmt.Errorf("COSE_Sign1: %w", err)
	}
	v, err := cose.NewVerifier(alg.COSE, pub)
	if err != nil {
		return nil, fmt.Errorf("COSE verifier: %w", err)
	}
	if err := msg.Verify(nil, v); err != nil {
		return nil, fmt.Errorf("COSE_Sign1 signature does not verify with the registered key: %w", err)
	}
	return msg.Payload, nil
}

// jwsCompact is a JWS in compact serialisation (RFC 7515 §7.1): the
// protected header {"alg":"ES256"} (or EdDSA), the payload and the
// signature, each base64url, joined by dots — S004's JOSE signature.
type jwsCompact struct{}

// contentFormatJOSE: CoAP has no registered Content-Format for
// application/jose, so the scenario uses 65000, the first number of the
// experimental range (RFC 7252 §12.3: 65000–65535, experimental use).
const contentFormatJOSE message.MediaType = 65000

func (jwsCompact) Name() string                     { return "jws" }
func (jwsCompact) ContentFormat() message.MediaType { return contentFormatJOSE }

func (jwsCompact) Sign(k *KeyPair, payload []byte) ([]byte, error) {
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: k.Alg.JOSE, Key: k.Signer}, nil)
	if err != nil {
		return nil, fmt.Errorf("JWS signer: %w", err)
	}
	obj, err := s.Sign(payload)
	if err != nil {
		return nil, fmt.Errorf("JWS: %w", err)
	}
	c, err := obj.CompactSerialize()
	if err != nil {
		return nil, fmt.Errorf("JWS: %w", err)
	}
	return []byte(c), nil
}

func (jwsCompact) Verify(pub crypto.PublicKey, alg *Alg, obj []byte) ([]byte, error) {
	if len(obj) > maxObjectBytes {
		return nil, fmt.Errorf("JWS of %d bytes: at most %d", len(obj), maxObjectBytes)
	}
	o, err := jose.ParseSignedCompact(string(obj), []jose.SignatureAlgorithm{alg.JOSE})
	if err != nil {
		return nil, fmt.Errorf("JWS: %w", err)
	}
	payload, err := o.Verify(pub)
	if err != nil {
		return nil, fmt.Errorf("JWS signature does not verify with the registered key: %w", err)
	}
	return payload, nil
}

// Protection is one way of protecting readings: a signed data object
// (Object set), a DTLS 1.2 session (Transport set) or an EDHOC session
// with OSCORE (OSCORE set).
type Protection struct {
	Name    string
	Summary string
	// Object signs each reading (nil for transport security).
	Object ObjectFormat
	// Transport is the DTLS credential kind (nil for object security).
	Transport *Transport
	// OSCORE marks EDHOC + OSCORE (RFC 9528, RFC 8613); the variant picks
	// the EDHOC method.
	OSCORE bool
	// ModelVariant is the variant of the built-in sensor-reading model
	// that describes this protection, "" when none does.
	ModelVariant string
}

// Protections is the registry of protections.
var Protections = []*Protection{
	{Name: "cose-sign1", Summary: "each reading a COSE_Sign1 object (RFC 9052), verified by the proxy and end to end by the application",
		Object: coseSign1{}, ModelVariant: "COSE_Sign1"},
	{Name: "jws", Summary: "each reading a JWS in compact serialisation (RFC 7515), verified by the proxy and end to end by the application",
		Object: jwsCompact{}, ModelVariant: "JWS"},
	{Name: "dtls-psk", Summary: "readings over a DTLS 1.2 session with a pre-shared key (RFC 4279, TLS_PSK_WITH_AES_128_CCM_8, RFC 7925 §4)",
		Transport: &transportPSK},
	{Name: "dtls-ecdhe", Summary: "readings over a DTLS 1.2 session, ECDHE-ECDSA with the sensor's own key (TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8, RFC 7925 §4.4)",
		Transport: &transportECDHE, ModelVariant: "DTLS"},
	{Name: "edhoc-oscore", Summary: "an EDHOC session (RFC 9528) with the sensor's own key, then each reading protected with OSCORE (RFC 8613); message_3 rides with the first request (RFC 9668)",
		OSCORE: true},
}

// HasSession reports a protection with a session set up before the
// readings (DTLS's handshake, EDHOC).
func (p *Protection) HasSession() bool { return p.Transport != nil || p.OSCORE }

// protectionAliases are other names --protection accepts.
var protectionAliases = map[string]string{"cose": "cose-sign1", "jose": "jws", "psk": "dtls-psk", "ecdhe": "dtls-ecdhe", "edhoc": "edhoc-oscore", "oscore": "edhoc-oscore"}

// LookupProtection returns the protection named name or an alias.
func LookupProtection(name string) (*Protection, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if a, ok := protectionAliases[n]; ok {
		n = a
	}
	var names []string
	for _, p := range Protections {
		if p.Name == n {
			return p, nil
		}
		names = append(names, p.Name)
	}
	return nil, fmt.Errorf("unknown protection %q: want one of %s", name, strings.Join(names, ", "))
}
