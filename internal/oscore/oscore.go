// Package oscore implements Object Security for Constrained RESTful
// Environments (OSCORE, RFC 8613) for CoAP requests and responses: the
// security context derivation (§3.2), the AEAD nonce (§5.2), the COSE
// object and its compression into the OSCORE option (§5, §6), message
// protection with Inner and Outer options (§4, §8) and the replay window
// (§7.4, §3.2.2). The tests check it against the RFC's Appendix C test
// vectors. Messages are go-coap's message.Message values, so the protected
// bytes are what go-coap puts on the wire.
//
// It is written here because no maintained Go OSCORE module is reachable.
// The AEAD is AES-CCM-16-64-128 (COSE algorithm 10, the mandatory one) and
// the HKDF is HKDF-SHA-256, the defaults; Observe and Block-wise are not
// supported (their options are protected as Inner options only).
package oscore

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/fxamacker/cbor/v2"
	"github.com/pion/dtls/v3/pkg/crypto/ccm"
	"github.com/plgd-dev/go-coap/v3/message"
	"github.com/plgd-dev/go-coap/v3/message/codes"
	"golang.org/x/crypto/hkdf"
)

// Option numbers (RFC 8613 §2: OSCORE 9; RFC 9668 §3.1: EDHOC 21).
const (
	OptionOSCORE message.OptionID = 9
	OptionEDHOC  message.OptionID = 21
)

// AES-CCM-16-64-128 (RFC 9053 §4.2): COSE value 10, a 16-byte key, a
// 13-byte nonce and an 8-byte tag.
const (
	AlgAESCCM   = 10
	KeyLength   = 16
	NonceLength = 13
	TagLength   = 8
	// maxSequence: the Partial IV is at most 5 bytes (§6.1) and AES-CCM-16-
	// 64-128 allows sequence numbers below 2^40 (§7.2.1, §12).
	maxSequence = 1<<40 - 1
	// maxIDLength: a Sender ID is at most nonce length − 6 bytes (§3.3).
	maxIDLength = NonceLength - 6
)

// Context is one endpoint's security context (RFC 8613 §3.1): the Common
// Context, its Sender Context and one Recipient Context.
type Context struct {
	SenderID, RecipientID, IDContext []byte
	SenderKey, RecipientKey          []byte
	CommonIV                         []byte

	mu     sync.Mutex
	seq    uint64
	replay Window
	send   cipher.AEAD
	recv   cipher.AEAD
}

// NewContext derives a security context (RFC 8613 §3.2.1) from the Master
// Secret and Salt (empty by default), the endpoint's Sender and Recipient
// IDs and the optional ID Context.
func NewContext(masterSecret, masterSalt, senderID, recipientID, idContext []byte) (*Context, error) {
	if len(senderID) > maxIDLength || len(recipientID) > maxIDLength {
		return nil, fmt.Errorf("oscore: Sender and Recipient IDs are at most %d bytes with AES-CCM-16-64-128 (RFC 8613 §3.3)", maxIDLength)
	}
	if string(senderID) == string(recipientID) {
		return nil, errors.New("oscore: the Sender ID must differ from the Recipient ID (RFC 8613 §3.3)")
	}
	c := &Context{SenderID: clone(senderID), RecipientID: clone(recipientID), IDContext: clone(idContext)}
	var err error
	if c.SenderKey, err = derive(masterSecret, masterSalt, Info(senderID, idContext, "Key", KeyLength), KeyLength); err != nil {
		return nil, err
	}
	if c.RecipientKey, err = derive(masterSecret, masterSalt, Info(recipientID, idContext, "Key", KeyLength), KeyLength); err != nil {
		return nil, err
	}
	if c.CommonIV, err = derive(masterSecret, masterSalt, Info(nil, idContext, "IV", NonceLength), NonceLength); err != nil {
		return nil, err
	}
	if c.send, err = newAEAD(c.SenderKey); err != nil {
		return nil, err
	}
	if c.recv, err = newAEAD(c.RecipientKey); err != nil {
		return nil, err
	}
	return c, nil
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}

// Info is the HKDF info of RFC 8613 §3.2.1: [id, id_context / nil,
// alg_aead, type, L].
func Info(id, idContext []byte, typ string, l int) []byte {
	if id == nil {
		id = []byte{}
	}
	var ctx any
	if idContext != nil {
		ctx = idContext
	}
	b, err := cbor.Marshal([]any{id, ctx, AlgAESCCM, typ, l})
	if err != nil {
		panic(err)
	}
	return b
}

func derive(secret, salt, info []byte, l int) ([]byte, error) {
	out := make([]byte, l)
	if _, err := io.ReadFull(hkdf.New(sha256.New, secret, salt, info), out); err != nil {
		return nil, err
	}
	return out, nil
}

func newAEAD(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return ccm.NewCCM(b, TagLength, NonceLength)
}

// Nonce is the AEAD nonce of RFC 8613 §5.2: the size of ID_PIV, ID_PIV
// left-padded to nonce length − 6 bytes and the Partial IV left-padded to
// 5 bytes, XOR the Common IV.
func (c *Context) Nonce(idPIV, piv []byte) []byte {
	n := make([]byte, NonceLength)
	n[0] = byte(len(idPIV))
	copy(n[1+maxIDLength-len(idPIV):1+maxIDLength], idPIV)
	copy(n[NonceLength-len(piv):], piv)
	for i := range n {
		n[i] ^= c.CommonIV[i]
	}
	return n
}

// partialIV encodes a sequence number without leading zero bytes, 0 as
// 0x00 (RFC 8613 §5).
func partialIV(seq uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], seq)
	i := 0
	for i < 7 && b[i] == 0 {
		i++
	}
	return append([]byte(nil), b[i:]...)
}

// SetSequence sets the Sender Sequence Number (for the test vectors, which
// start at 20).
func (c *Context) SetSequence(n uint64) { c.mu.Lock(); c.seq = n; c.mu.Unlock() }

// Binding is what a response is bound to (RFC 8613 §7.1): the request's
// kid and Partial IV, and its nonce for a response without Partial IV.
type Binding struct {
	KID, PIV, Nonce []byte
}

// aad is the AAD of RFC 8613 §5.4: the COSE Enc_structure ["Encrypt0",
// h”, external_aad] with external_aad the bstr of the aad_array
// [oscore_version 1, [alg_aead], request_kid, request_piv, options h”].
func aad(kid, piv []byte) []byte {
	arr, err := cbor.Marshal([]any{1, []any{AlgAESCCM}, nonNil(kid), nonNil(piv), []byte{}})
	if err != nil {
		panic(err)
	}
	b, err := cbor.Marshal([]any{"Encrypt0", []byte{}, arr})
	if err != nil {
		panic(err)
	}
	return b
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// outerOnly are the Class U options (RFC 8613 Figure 5: Uri-Host, Uri-Port,
// OSCORE, Proxy-Uri, Proxy-Scheme; RFC 9668 §3.1: EDHOC). Options that are
// both E and U (Observe, Max-Age, Block1/2, Size1/2, No-Response) are
// protected as Inner options only here.
var outerOnly = map[message.OptionID]bool{3: true, 7: true, OptionOSCORE: true, 35: true, 39: true, OptionEDHOC: true}

// split separates Inner (Class E) from Outer (Class U) options.
func split(opts message.Options) (inner, outer message.Options) {
	for _, o := range opts {
		if outerOnly[o.ID] {
			outer = append(outer, o)
		} else {
			inner = append(inner, o)
		}
	}
	return inner, outer
}

// Plaintext is the COSE plaintext of RFC 8613 §5.3: the Code, the Inner
// options encoded as CoAP options (RFC 7252 §3.1, deltas from 0), and the
// payload after 0xFF if there is one.
func Plaintext(code codes.Code, inner message.Options, payload []byte) []byte {
	out := []byte{byte(code)}
	out = appendOptions(out, inner)
	if len(payload) > 0 {
		out = append(append(out, 0xff), payload...)
	}
	return out
}

// appendOptions encodes options in CoAP's delta/length format.
func appendOptions(out []byte, opts message.Options) []byte {
	sorted := slices.Clone(opts)
	slices.SortStableFunc(sorted, func(a, b message.Option) int { return int(a.ID) - int(b.ID) })
	prev := 0
	for _, o := range sorted {
		delta, length := int(o.ID)-prev, len(o.Value)
		dn, dext := nibble(delta)
		ln, lext := nibble(length)
		out = append(out, byte(dn<<4|ln))
		out = append(append(out, dext...), lext...)
		out = append(out, o.Value...)
		prev = int(o.ID)
	}
	return out
}

// nibble is an option delta or length's 4-bit field and extension bytes
// (RFC 7252 §3.1).
func nibble(v int) (int, []byte) {
	switch {
	case v < 13:
		return v, nil
	case v < 269:
		return 13, []byte{byte(v - 13)}
	}
	return 14, []byte{byte((v - 269) >> 8), byte(v - 269)}
}

// parsePlaintext decodes a plaintext into code, options and payload.
func parsePlaintext(pt []byte) (codes.Code, message.Options, []byte, error) {
	if len(pt) == 0 {
		return 0, nil, nil, errors.New("empty plaintext")
	}
	code, rest := codes.Code(pt[0]), pt[1:]
	var opts message.Options
	prev := 0
	for len(rest) > 0 {
		if rest[0] == 0xff {
			if len(rest) == 1 {
				return 0, nil, nil, errors.New("payload marker without payload")
			}
			return code, opts, rest[1:], nil
		}
		dn, ln := int(rest[0]>>4), int(rest[0]&0x0f)
		rest = rest[1:]
		var err error
		var delta, length int
		if delta, rest, err = extend(dn, rest); err != nil {
			return 0, nil, nil, err
		}
		if length, rest, err = extend(ln, rest); err != nil {
			return 0, nil, nil, err
		}
		if length > len(rest) {
			return 0, nil, nil, errors.New("option value runs past the plaintext")
		}
		prev += delta
		opts = append(opts, message.Option{ID: message.OptionID(prev), Value: append([]byte(nil), rest[:length]...)})
		rest = rest[length:]
	}
	return code, opts, nil, nil
}

func extend(n int, rest []byte) (int, []byte, error) {
	switch n {
	case 13:
		if len(rest) < 1 {
			return 0, nil, errors.New("truncated option")
		}
		return int(rest[0]) + 13, rest[1:], nil
	case 14:
		if len(rest) < 2 {
			return 0, nil, errors.New("truncated option")
		}
		return int(binary.BigEndian.Uint16(rest)) + 269, rest[2:], nil
	case 15:
		return 0, nil, errors.New("reserved option nibble 15")
	}
	return n, rest, nil
}

// OptionValue is the compressed COSE header (RFC 8613 §6.1): a flag byte
// (n = Partial IV length, k = kid present, h = kid context present), the
// Partial IV, the kid context with its length, the kid. Empty when
// nothing is present.
func OptionValue(piv, kidContext, kid []byte, withKID bool) []byte {
	flags := byte(len(piv))
	if withKID {
		flags |= 0x08
	}
	if kidContext != nil {
		flags |= 0x10
	}
	if flags == 0 {
		return []byte{}
	}
	out := append([]byte{flags}, piv...)
	if kidContext != nil {
		out = append(append(out, byte(len(kidContext))), kidContext...)
	}
	if withKID {
		out = append(out, kid...)
	}
	return out
}

// header is a decoded OSCORE option value.
type header struct {
	piv, kidContext, kid []byte
	hasKID               bool
}

func parseOption(v []byte) (header, error) {
	var h header
	if len(v) == 0 {
		return h, nil
	}
	flags := v[0]
	if flags&0xe0 != 0 {
		return h, errors.New("reserved OSCORE flag bits set")
	}
	n := int(flags & 0x07)
	if n > 5 {
		return h, fmt.Errorf("a Partial IV of %d bytes: at most 5", n)
	}
	rest := v[1:]
	if len(rest) < n {
		return h, errors.New("truncated Partial IV")
	}
	h.piv, rest = rest[:n], rest[n:]
	if flags&0x10 != 0 {
		if len(rest) < 1 || len(rest) < 1+int(rest[0]) {
			return h, errors.New("truncated kid context")
		}
		h.kidContext, rest = rest[1:1+int(rest[0])], rest[1+int(rest[0]):]
	}
	if flags&0x08 != 0 {
		h.kid, h.hasKID = rest, true
	} else if len(rest) > 0 {
		return h, errors.New("bytes after the OSCORE option's fields")
	}
	return h, nil
}

// Protected is an OSCORE message's parts.
type Protected struct {
	Code    codes.Code
	Options message.Options
	Payload []byte
}

// ProtectRequest turns a CoAP request into an OSCORE request (RFC 8613
// §8.1): Outer Code POST, the Class U options and the OSCORE option
// outside, the rest encrypted. The binding is kept for the response.
func (c *Context) ProtectRequest(code codes.Code, opts message.Options, payload []byte) (Protected, Binding, error) {
	if opts.HasOption(OptionOSCORE) {
		return Protected{}, Binding{}, errors.New("oscore: the request already has an OSCORE option (nesting is not supported, RFC 8613 §4.1.3.7)")
	}
	c.mu.Lock()
	if c.seq > maxSequence {
		c.mu.Unlock()
		return Protected{}, Binding{}, errors.New("oscore: Sender Sequence Number exhausted: derive a new context")
	}
	piv := partialIV(c.seq)
	c.seq++
	c.mu.Unlock()
	inner, outer := split(opts)
	nonce := c.Nonce(c.SenderID, piv)
	ct := c.send.Seal(nil, nonce, Plaintext(code, inner, payload), aad(c.SenderID, piv))
	outer = append(outer, message.Option{ID: OptionOSCORE, Value: OptionValue(piv, c.IDContext, c.SenderID, true)})
	return Protected{Code: codes.POST, Options: sortOptions(outer), Payload: ct},
		Binding{KID: clone(c.SenderID), PIV: piv, Nonce: nonce}, nil
}

func sortOptions(o message.Options) message.Options {
	slices.SortStableFunc(o, func(a, b message.Option) int { return int(a.ID) - int(b.ID) })
	return o
}

// Errors a server reports (RFC 8613 §8.2): each maps to a CoAP error code.
var (
	ErrDecode   = errors.New("oscore: failed to decode COSE")            // 4.02
	ErrNoCtx    = errors.New("oscore: security context not found")       // 4.01
	ErrReplay   = errors.New("oscore: replay detected")                  // 4.01
	ErrDecrypt  = errors.New("oscore: decryption failed")                // 4.00
	ErrResponse = errors.New("oscore: the response does not verify")     // client side
	ErrNotOSC   = errors.New("oscore: the message has no OSCORE option") // not OSCORE at all
)

// UnprotectRequest verifies and decrypts an OSCORE request (RFC 8613
// §8.2), checking the replay window, and returns the inner request and
// the binding for the response. The window is updated only if the
// request decrypts.
func (c *Context) UnprotectRequest(p Protected) (Protected, Binding, error) {
	v, ok := optionValue(p.Options)
	if !ok {
		return Protected{}, Binding{}, ErrNotOSC
	}
	h, err := parseOption(v)
	if err != nil || !h.hasKID || len(h.piv) == 0 {
		return Protected{}, Binding{}, fmt.Errorf("%w: %v", ErrDecode, errors.Join(err, errors.New("a request needs a kid and a Partial IV")))
	}
	if string(h.kid) != string(c.RecipientID) || string(h.kidContext) != string(c.IDContext) {
		return Protected{}, Binding{}, ErrNoCtx
	}
	seq := uint64(0)
	for _, b := range h.piv {
		seq = seq<<8 | uint64(b)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.replay.Check(seq) {
		return Protected{}, Binding{}, ErrReplay
	}
	nonce := c.Nonce(h.kid, h.piv)
	pt, err := c.recv.Open(nil, nonce, p.Payload, aad(h.kid, h.piv))
	if err != nil {
		return Protected{}, Binding{}, ErrDecrypt
	}
	c.replay.Accept(seq)
	code, inner, payload, err := parsePlaintext(pt)
	if err != nil {
		return Protected{}, Binding{}, fmt.Errorf("%w: %v", ErrDecode, err)
	}
	_, outer := split(p.Options)
	var opts message.Options
	for _, o := range outer {
		if o.ID != OptionOSCORE {
			opts = append(opts, o)
		}
	}
	return Protected{Code: code, Options: sortOptions(append(opts, inner...)), Payload: payload},
		Binding{KID: clone(h.kid), PIV: clone(h.piv), Nonce: nonce}, nil
}

func optionValue(opts message.Options) ([]byte, bool) {
	for _, o := range opts {
		if o.ID == OptionOSCORE {
			return o.Value, true
		}
	}
	return nil, false
}

// ProtectResponse protects a response to the request bound by b (RFC 8613
// §8.3), reusing the request's nonce (no Partial IV): Outer Code 2.04.
func (c *Context) ProtectResponse(code codes.Code, opts message.Options, payload []byte, b Binding) (Protected, error) {
	inner, outer := split(opts)
	ct := c.send.Seal(nil, b.Nonce, Plaintext(code, inner, payload), aad(b.KID, b.PIV))
	outer = append(outer, message.Option{ID: OptionOSCORE, Value: []byte{}})
	return Protected{Code: codes.Changed, Options: sortOptions(outer), Payload: ct}, nil
}

// UnprotectResponse verifies and decrypts a response to the request bound
// by b (RFC 8613 §8.4).
func (c *Context) UnprotectResponse(p Protected, b Binding) (Protected, error) {
	v, ok := optionValue(p.Options)
	if !ok {
		return Protected{}, ErrNotOSC
	}
	h, err := parseOption(v)
	if err != nil {
		return Protected{}, fmt.Errorf("%w: %v", ErrResponse, err)
	}
	nonce := b.Nonce
	if len(h.piv) > 0 {
		nonce = c.Nonce(c.RecipientID, h.piv)
	}
	pt, err := c.recv.Open(nil, nonce, p.Payload, aad(b.KID, b.PIV))
	if err != nil {
		return Protected{}, ErrResponse
	}
	code, inner, payload, err := parsePlaintext(pt)
	if err != nil {
		return Protected{}, fmt.Errorf("%w: %v", ErrResponse, err)
	}
	_, outer := split(p.Options)
	var opts message.Options
	for _, o := range outer {
		if o.ID != OptionOSCORE {
			opts = append(opts, o)
		}
	}
	return Protected{Code: code, Options: sortOptions(append(opts, inner...)), Payload: payload}, nil
}

// Window is the default replay window (RFC 8613 §3.2.2): the anti-replay
// sliding window of RFC 6347 §4.1.2.6 (RFC 4303 §3.4.3) over 32 sequence
// numbers. A number is new if it is above the highest accepted, or within
// the 32 below it and not yet seen.
type Window struct {
	started bool
	top     uint64
	seen    uint32 // bit i: top − i accepted
}

// WindowSize is the default window (RFC 8613 §3.2.2).
const WindowSize = 32

// Check reports whether seq would be accepted (not a replay, not too old).
func (w *Window) Check(seq uint64) bool {
	if !w.started || seq > w.top {
		return true
	}
	d := w.top - seq
	return d < WindowSize && w.seen&(1<<d) == 0
}

// Accept records seq as received; call after the message verified.
func (w *Window) Accept(seq uint64) {
	if !w.started {
		w.started, w.top, w.seen = true, seq, 1
		return
	}
	if seq > w.top {
		shift := seq - w.top
		if shift >= WindowSize {
			w.seen = 0
		} else {
			w.seen <<= shift
		}
		w.top = seq
		w.seen |= 1
		return
	}
	w.seen |= 1 << (w.top - seq)
}

// RequestKID returns the kid of a request's OSCORE option (the client's
// Sender ID, by which the server finds the context).
func RequestKID(opts message.Options) ([]byte, bool) {
	v, ok := optionValue(opts)
	if !ok {
		return nil, false
	}
	h, err := parseOption(v)
	if err != nil || !h.hasKID {
		return nil, false
	}
	return h.kid, true
}

// go-coap keeps the option definitions it accepts in a registry; OSCORE
// (RFC 8613 §2: opaque, 0–255 bytes) and EDHOC (RFC 9668 §3.1: empty) are
// added so it does not refuse them as unknown critical options (RFC 7252
// §5.4.1).
func init() {
	message.CoapOptionDefs[OptionOSCORE] = message.OptionDef{ValueFormat: message.ValueOpaque, MinLen: 0, MaxLen: 255}
	message.CoapOptionDefs[OptionEDHOC] = message.OptionDef{ValueFormat: message.ValueEmpty, MinLen: 0, MaxLen: 0}
}
