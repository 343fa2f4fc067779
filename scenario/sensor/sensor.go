package sensor

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	piondtls "github.com/pion/dtls/v3"
	dtlsnet "github.com/pion/dtls/v3/pkg/net"
	coapdtls "github.com/plgd-dev/go-coap/v3/dtls"
	"github.com/plgd-dev/go-coap/v3/message"
	"github.com/plgd-dev/go-coap/v3/message/codes"
	"github.com/plgd-dev/go-coap/v3/message/pool"
	"github.com/plgd-dev/go-coap/v3/options"
	"github.com/plgd-dev/go-coap/v3/udp"
	udpClient "github.com/plgd-dev/go-coap/v3/udp/client"
)

// Sensor is one sensor node: its endpoint name, its own key pair (or, for
// DTLS-PSK, the key the installer provisioned), and a CoAP client that
// registers at the proxy and PUTs readings to its mirrored resource.
type Sensor struct {
	Name       string
	Key        *KeyPair
	PSK        []byte
	Credential *Credential
	Protection *Protection
	CID        bool
	Encoding   *Encoding
	// Resource is the mirrored resource's name ("temp").
	Resource string
	// EDHOC is the sensor's EDHOC session and OSCORE context
	// (edhoc-oscore only).
	EDHOC *EDHOCInitiator
	// FlightInterval is the DTLS retransmission timer (0: 1 s).
	FlightInterval time.Duration

	conn     *udpClient.Conn
	dtlsConn *piondtls.Conn
	location []string
	// SignNs are the times of the reading signatures (object security).
	SignNs []float64
	// HandshakeSign times the DTLS handshake's signatures.
	HandshakeSign *SignTimer
	// LastPayload is the size of the last reading's CoAP payload, and
	// LastSent the payload.
	LastPayload int
	LastSent    []byte

	mu    sync.Mutex
	token uint16
}

// tokenBytes: the sensor uses 2-byte tokens (RFC 7252 §5.3.1 allows 0–8;
// a client with one outstanding request needs few; the sensor-reading
// model counts 2). A counter keeps them unique.
const tokenBytes = 2

func (s *Sensor) nextToken() (message.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.token++
	t := make(message.Token, tokenBytes)
	binary.BigEndian.PutUint16(t, s.token)
	return t, nil
}

// sensorTimeout bounds the sensor's handshake and each request: CoAP and
// DTLS retransmit within it (RFC 7252 §4.2: 2–3 s, doubling; RFC 6347
// §4.2.4.1: 1 s, doubling), so a lossy link still gets through, and a dead
// proxy fails the run in bounded time (CoAP's own MAX_TRANSMIT_WAIT is
// 93 s).
const sensorTimeout = 30 * time.Second

// RegistrationLifetime is the lt the sensor registers with: RFC 9176
// §5.3's default, 90000 s (25 h).
const RegistrationLifetime = 90000

// Dial connects to the proxy at addr: plain CoAP for object security, a
// DTLS session (its handshake done here, before any CoAP) for transport
// security. proxyKey is the proxy's pinned COSE_Key (ECDHE only).
func (s *Sensor) Dial(ctx context.Context, addr net.Addr, proxyKey []byte) error {
	opts := []udp.Option{options.WithGetToken(s.nextToken), options.WithContext(ctx),
		options.WithMaxMessageSize(maxMessageBytes), options.WithErrors(func(error) {})}
	if s.Protection.Transport == nil {
		c, err := udp.Dial(addr.String(), opts...)
		if err != nil {
			return fmt.Errorf("sensor %s: %w", s.Name, err)
		}
		s.conn = c
		if s.EDHOC != nil {
			return s.handshakeEDHOC(ctx)
		}
		return nil
	}
	s.HandshakeSign = &SignTimer{}
	flight := s.FlightInterval
	if flight == 0 {
		flight = time.Second
	}
	cfg, err := ClientConfig(s.Protection.Transport, s.CID, s.Name, s.PSK, s.Credential, s.HandshakeSign, proxyKey, flight)
	if err != nil {
		return err
	}
	raw, err := net.Dial("udp4", addr.String())
	if err != nil {
		return fmt.Errorf("sensor %s: %w", s.Name, err)
	}
	dc, err := piondtls.Client(dtlsnet.PacketConnFromConn(raw), raw.RemoteAddr(), cfg)
	if err != nil {
		raw.Close()
		return fmt.Errorf("sensor %s: DTLS: %w", s.Name, err)
	}
	hctx, cancel := context.WithTimeout(ctx, sensorTimeout)
	defer cancel()
	if err := dc.HandshakeContext(hctx); err != nil {
		dc.Close()
		return fmt.Errorf("sensor %s: DTLS handshake: %w", s.Name, err)
	}
	s.dtlsConn = dc
	s.conn = coapdtls.Client(dc, opts...)
	return nil
}

// Close ends the session (a DTLS close_notify alert) and the socket.
func (s *Sensor) Close() error {
	if s.conn == nil {
		return nil
	}
	err := s.conn.Close()
	if s.dtlsConn != nil {
		s.dtlsConn.Close()
	}
	<-s.conn.Done()
	return err
}

// Exchange is one request and its response, as the sensor saw them.
type Exchange struct {
	Code codes.Code
	// ResponseBytes is the response's size computed from its parts (RFC
	// 7252 §3), for the byte accounting.
	ResponseBytes int
	// Latency is from sending the request to having the response.
	Latency time.Duration
	// Diagnostic is the payload of an error response.
	Diagnostic string
	// Location is the response's Location-Path.
	Location []string
}

// Answer is the response as "4.01 Unauthorized (reason)", with the
// diagnostic payload of an error (RFC 7252 §5.5.2).
func (e Exchange) Answer() string {
	a := fmt.Sprintf("%d.%02d %v", e.Code>>5, e.Code&31, e.Code)
	if e.Diagnostic != "" {
		a += " (" + e.Diagnostic + ")"
	}
	return a
}

// Rejected reports a response that is not a success: its class (the
// code's top three bits, RFC 7252 §3) is not 2.
func (e Exchange) Rejected() bool { return e.Code>>5 != 2 }

func (s *Sensor) do(req *pool.Message) (Exchange, error) {
	if s.EDHOC != nil {
		return s.doOSCORE(req)
	}
	start := time.Now()
	resp, err := s.conn.Do(req)
	if err != nil {
		return Exchange{}, fmt.Errorf("sensor %s: %w", s.Name, err)
	}
	defer s.conn.ReleaseMessage(resp)
	body, _ := resp.ReadBody()
	x := Exchange{Code: resp.Code(), Latency: time.Since(start),
		ResponseBytes: CoAPMessage{TokenBytes: len(resp.Token()), Options: resp.Options(), PayloadBytes: len(body)}.Size()}
	if x.Rejected() {
		x.Diagnostic = string(body)
	}
	for _, o := range resp.Options() {
		if o.ID == message.LocationPath {
			x.Location = append(x.Location, string(o.Value))
		}
	}
	return x, nil
}

// Links are the sensor's links as it registers them: its resource with
// the content format of its readings and, unless it uses a PSK, its public
// key in the pk attribute.
func (s *Sensor) Links() []Link {
	cf := s.Encoding.ContentFormat
	if s.Protection.Object != nil {
		cf = s.Protection.Object.ContentFormat()
	}
	l := Link{Target: "/" + s.Resource, Attrs: []Attr{{Name: "rt", Value: "temperature", Quoted: true},
		{Name: "ct", Value: strconv.Itoa(int(cf))}}}
	// The key is not repeated where the session authenticated it by its
	// identity already (EDHOC) or where there is none (PSK).
	if s.Key != nil && s.Protection.Transport != &transportPSK && !s.Protection.OSCORE {
		l.Attrs = append(l.Attrs, Attr{Name: PublicKeyAttr, Value: base64.RawURLEncoding.EncodeToString(s.Key.COSEKey)})
	}
	return []Link{l}
}

// Register registers the sensor's resources at the proxy's directory.
func (s *Sensor) Register(ctx context.Context) (Exchange, error) {
	ctx, cancel := context.WithTimeout(ctx, sensorTimeout)
	defer cancel()
	req, err := s.conn.NewPostRequest(ctx, "/rd", message.AppLinkFormat, bytes.NewReader([]byte(FormatLinks(s.Links()))),
		message.Option{ID: message.URIQuery, Value: []byte("ep=" + s.Name)},
		message.Option{ID: message.URIQuery, Value: []byte("lt=" + strconv.Itoa(RegistrationLifetime))})
	if err != nil {
		return Exchange{}, err
	}
	defer s.conn.ReleaseMessage(req)
	x, err := s.do(req)
	if err != nil || x.Rejected() {
		return x, err
	}
	if len(x.Location) == 0 {
		return x, fmt.Errorf("sensor %s: the directory created no location for the registration", s.Name)
	}
	s.location = x.Location
	return x, nil
}

// ResourcePath is the path of the sensor's mirrored resource at the
// proxy, once registered ("/m/1/temp").
func (s *Sensor) ResourcePath() string {
	p := ""
	for _, l := range s.location {
		p += "/" + l
	}
	return p + "/" + s.Resource
}

// Put sends reading pack (signed as an object if the protection says so)
// to the mirrored resource at path.
func (s *Sensor) Put(ctx context.Context, path string, pack Pack) (Exchange, error) {
	payload, err := s.Encoding.Marshal(pack)
	if err != nil {
		return Exchange{}, err
	}
	cf := s.Encoding.ContentFormat
	if obj := s.Protection.Object; obj != nil {
		start := time.Now()
		payload, err = obj.Sign(s.Key, payload)
		s.SignNs = append(s.SignNs, float64(time.Since(start).Nanoseconds()))
		if err != nil {
			return Exchange{}, err
		}
		cf = obj.ContentFormat()
	}
	return s.PutRaw(ctx, path, cf, payload)
}

// PutRaw sends payload as it is (attack fixtures send forged objects).
func (s *Sensor) PutRaw(ctx context.Context, path string, cf message.MediaType, payload []byte) (Exchange, error) {
	s.LastPayload, s.LastSent = len(payload), payload
	ctx, cancel := context.WithTimeout(ctx, sensorTimeout)
	defer cancel()
	req, err := s.conn.NewPutRequest(ctx, path, cf, bytes.NewReader(payload))
	if err != nil {
		return Exchange{}, err
	}
	defer s.conn.ReleaseMessage(req)
	return s.do(req)
}
