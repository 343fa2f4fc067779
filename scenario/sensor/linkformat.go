package sensor

import (
	"encoding/base64"
	"fmt"
	"strings"
)

// CoRE Link Format (RFC 6690), the subset a resource directory needs:
// links <target> with attributes, separated by commas. Written here, small
// and bounded, because go-coap has no link-format codec.
//
// The public key travels as a link attribute this scenario defines:
//
//	pk=<base64url of the COSE_Key>
//
// on the link to each resource whose representations the key signs, for
// example
//
//	</temp>;rt="temperature";ct=18;pk=pQECAyYgASFYIKd…
//
// The value is the COSE_Key (RFC 9052 §7) of the public key, in
// deterministic CBOR, as unpadded base64url (RFC 4648 §5). Every base64url
// character is an RFC 6690 ptoken character, so the value needs no quotes;
// a P-256 key is 77 bytes, 103 characters. The same bytes, followed by the
// endpoint name, hash to the sensor's identity (Identity), so the directory
// can check a registration against its authorisation list without any
// shared secret, and anyone who looks the resource up can verify its
// signed representations end to end.

// Link is one link-value: a target and its attributes in order.
type Link struct {
	Target string
	Attrs  []Attr
}

// Attr is one link parameter; Value is "" for a parameter without one.
type Attr struct {
	Name, Value string
	// Quoted writes the value as a quoted-string.
	Quoted bool
}

// Attr returns the value of the first attribute named name.
func (l Link) Attr(name string) (string, bool) {
	for _, a := range l.Attrs {
		if strings.EqualFold(a.Name, name) {
			return a.Value, true
		}
	}
	return "", false
}

// PublicKeyAttr is the attribute name carrying a COSE_Key.
const PublicKeyAttr = "pk"

// PublicKey returns the COSE_Key bytes of the link's pk attribute.
func (l Link) PublicKey() ([]byte, error) {
	v, ok := l.Attr(PublicKeyAttr)
	if !ok {
		return nil, fmt.Errorf("link <%s> has no %s attribute (the sensor's COSE_Key, base64url)", l.Target, PublicKeyAttr)
	}
	b, err := base64.RawURLEncoding.DecodeString(v)
	if err != nil {
		return nil, fmt.Errorf("link <%s>: %s is not unpadded base64url: %v", l.Target, PublicKeyAttr, err)
	}
	return b, nil
}

// FormatLinks writes links in link format.
func FormatLinks(links []Link) string {
	var b strings.Builder
	for i, l := range links {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("<" + l.Target + ">")
		for _, a := range l.Attrs {
			b.WriteString(";" + a.Name)
			switch {
			case a.Quoted:
				b.WriteString(`="` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(a.Value) + `"`)
			case a.Value != "":
				b.WriteString("=" + a.Value)
			}
		}
	}
	return b.String()
}

// Limits on parsed link format: a directory parses what anyone sends.
const (
	maxLinkFormatBytes = 4096
	maxLinks           = 64
	maxAttrs           = 32
)

// ParseLinks reads link format (RFC 6690 §2):
//
//	Link            = link-value-list
//	link-value-list = [ link-value *[ "," link-value ]]
//	link-value      = "<" URI-Reference ">" *( ";" link-param )
//	link-param      = parmname [ "=" ( ptoken / quoted-string ) ]
func ParseLinks(s string) ([]Link, error) {
	if len(s) > maxLinkFormatBytes {
		return nil, fmt.Errorf("link format of %d bytes: at most %d", len(s), maxLinkFormatBytes)
	}
	p := linkParser{s: s}
	var links []Link
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for {
		if len(links) == maxLinks {
			return nil, fmt.Errorf("more than %d links", maxLinks)
		}
		l, err := p.link()
		if err != nil {
			return nil, fmt.Errorf("link format at byte %d: %w", p.i, err)
		}
		links = append(links, l)
		p.space()
		if p.i == len(p.s) {
			return links, nil
		}
		if p.s[p.i] != ',' {
			return nil, fmt.Errorf("link format at byte %d: want ',' between links, got %q", p.i, p.s[p.i])
		}
		p.i++
		p.space()
	}
}

type linkParser struct {
	s string
	i int
}

func (p *linkParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\r' || p.s[p.i] == '\n') {
		p.i++
	}
}

func (p *linkParser) link() (Link, error) {
	var l Link
	if p.i >= len(p.s) || p.s[p.i] != '<' {
		return l, fmt.Errorf("want '<' to start a link")
	}
	end := strings.IndexByte(p.s[p.i:], '>')
	if end < 0 {
		return l, fmt.Errorf("unterminated <target>")
	}
	l.Target = p.s[p.i+1 : p.i+end]
	if strings.ContainsAny(l.Target, "<, \"") {
		return l, fmt.Errorf("target %q is not a URI reference", l.Target)
	}
	p.i += end + 1
	for p.i < len(p.s) && p.s[p.i] == ';' {
		if len(l.Attrs) == maxAttrs {
			return l, fmt.Errorf("more than %d attributes on <%s>", maxAttrs, l.Target)
		}
		p.i++
		a, err := p.attr()
		if err != nil {
			return l, err
		}
		l.Attrs = append(l.Attrs, a)
	}
	return l, nil
}

// parmname = 1*( ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." /
// "^" / "_" / "`" / "|" / "~" ) (RFC 8288 §3 token via RFC 6690 §2).
func isParmChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0
}

// ptokenchar (RFC 6690 §2).
func isPtokenChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'()*+-./:<=>?@[]^_`{|}~", c) >= 0
}

func (p *linkParser) attr() (Attr, error) {
	var a Attr
	start := p.i
	for p.i < len(p.s) && isParmChar(p.s[p.i]) {
		p.i++
	}
	if p.i == start {
		return a, fmt.Errorf("want a parameter name after ';'")
	}
	a.Name = p.s[start:p.i]
	if p.i == len(p.s) || p.s[p.i] != '=' {
		return a, nil
	}
	p.i++
	if p.i < len(p.s) && p.s[p.i] == '"' {
		p.i++
		var b strings.Builder
		for {
			if p.i >= len(p.s) {
				return a, fmt.Errorf("unterminated quoted value of %s", a.Name)
			}
			c := p.s[p.i]
			p.i++
			if c == '"' {
				break
			}
			if c == '\\' {
				if p.i >= len(p.s) {
					return a, fmt.Errorf("unterminated quoted value of %s", a.Name)
				}
				c = p.s[p.i]
				p.i++
			}
			b.WriteByte(c)
		}
		a.Value, a.Quoted = b.String(), true
		return a, nil
	}
	start = p.i
	for p.i < len(p.s) && isPtokenChar(p.s[p.i]) {
		p.i++
	}
	if p.i == start {
		return a, fmt.Errorf("want a value after %s=", a.Name)
	}
	a.Value = p.s[start:p.i]
	return a, nil
}
