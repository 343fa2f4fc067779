package sensor

import (
	"context"
	"crypto"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/plgd-dev/go-coap/v3/message"
	"github.com/plgd-dev/go-coap/v3/message/codes"
	"github.com/plgd-dev/go-coap/v3/options"
	"github.com/plgd-dev/go-coap/v3/udp"
	udpClient "github.com/plgd-dev/go-coap/v3/udp/client"
)

// Application reads sensors' readings through the proxy — the sensors
// sleep — and verifies signed readings end to end against the key
// registered for the endpoint, after checking that key's identity against
// its own copy of the installers' list: it trusts neither the proxy nor
// the network for the readings' integrity. Readings sent over DTLS carry
// no signature; for them it can only trust the proxy.
type Application struct {
	Authorised Authorised
	Encoding   *Encoding
	conn       *udpClient.Conn
	keys       map[string]registered
	last       map[string]float64
	// VerifyNs are the times of its signature verifications.
	VerifyNs []float64
}

type registered struct {
	path string
	key  crypto.PublicKey
	alg  *Alg
}

// ErrNotEndToEnd says a reading carried no signature: it came over DTLS,
// whose protection ends at the proxy.
var ErrNotEndToEnd = errors.New("not verifiable end to end: the reading came over DTLS, whose protection ends at the proxy; the application can only trust the proxy")

// DialApplication connects an application to the proxy (directly, not
// over the sensors' radio link).
func DialApplication(ctx context.Context, proxy net.Addr, a Authorised, enc *Encoding) (*Application, error) {
	c, err := udp.Dial(proxy.String(), options.WithContext(ctx), options.WithMaxMessageSize(maxMessageBytes), options.WithErrors(func(error) {}))
	if err != nil {
		return nil, fmt.Errorf("application: %w", err)
	}
	return &Application{Authorised: a, Encoding: enc, conn: c, keys: map[string]registered{}, last: map[string]float64{}}, nil
}

// Close closes the application's connection.
func (a *Application) Close() error { return a.conn.Close() }

// requestTimeout bounds each of the application's requests.
const requestTimeout = 10 * time.Second

// lookup finds the endpoint's resource and key in the directory and
// checks the key's identity against the list.
func (a *Application) lookup(ctx context.Context, ep string) (registered, error) {
	if r, ok := a.keys[ep]; ok {
		return r, nil
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	resp, err := a.conn.Get(ctx, "/rd-lookup/res", message.Option{ID: message.URIQuery, Value: []byte("ep=" + ep)})
	if err != nil {
		return registered{}, fmt.Errorf("lookup %s: %w", ep, err)
	}
	defer a.conn.ReleaseMessage(resp)
	body, _ := resp.ReadBody()
	if resp.Code() != codes.Content {
		return registered{}, fmt.Errorf("lookup %s: %v %s", ep, resp.Code(), body)
	}
	links, err := ParseLinks(string(body))
	if err != nil || len(links) == 0 {
		return registered{}, fmt.Errorf("lookup %s: no links (%v)", ep, err)
	}
	r := registered{path: links[0].Target}
	if ck, err := links[0].PublicKey(); err == nil {
		if !a.Authorised.Allows(NewIdentity(ck, ep)) {
			return registered{}, fmt.Errorf("lookup %s: the registered key's identity %s is not on the application's list", ep, NewIdentity(ck, ep))
		}
		if r.key, r.alg, err = ParseCOSEKey(ck); err != nil {
			return registered{}, fmt.Errorf("lookup %s: %w", ep, err)
		}
	}
	a.keys[ep] = r
	return r, nil
}

// Read fetches the endpoint's latest reading from the proxy and verifies
// it: the signature against the registered key, then freshness (newer
// than the last reading it accepted). A reading without a signature is
// returned with ErrNotEndToEnd.
func (a *Application) Read(ctx context.Context, ep string) (Pack, error) {
	r, err := a.lookup(ctx, ep)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	resp, err := a.conn.Get(ctx, r.path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", ep, err)
	}
	defer a.conn.ReleaseMessage(resp)
	body, _ := resp.ReadBody()
	if resp.Code() != codes.Content {
		return nil, fmt.Errorf("read %s: %v %s", ep, resp.Code(), body)
	}
	cf, _ := resp.ContentFormat()
	payload, signed := body, false
	if obj := objectFormatFor(cf); obj != nil {
		if r.key == nil {
			return nil, fmt.Errorf("read %s: a signed reading but no registered key", ep)
		}
		start := time.Now()
		payload, err = obj.Verify(r.key, r.alg, body)
		a.VerifyNs = append(a.VerifyNs, float64(time.Since(start).Nanoseconds()))
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", ep, err)
		}
		signed = true
	}
	pack, err := a.Encoding.Unmarshal(payload)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", ep, err)
	}
	t, err := ReadingTime(pack)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", ep, err)
	}
	if signed && t <= a.last[ep] {
		return nil, fmt.Errorf("read %s: stale reading (time %v, already had %v)", ep, t, a.last[ep])
	}
	a.last[ep] = t
	if !signed {
		return pack, ErrNotEndToEnd
	}
	return pack, nil
}
