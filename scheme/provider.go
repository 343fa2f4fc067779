package scheme

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// ProviderKind says what a provider's code is.
type ProviderKind string

const (
	// KindGo: Go code (the standard library, a Go module, this
	// repository). Always compiled in; these are the implementations a
	// name without a provider resolves to.
	KindGo ProviderKind = "go"
	// KindC: a C library called through cgo (scheme/provider/...),
	// measured only when asked for by name (bench --provider).
	KindC ProviderKind = "c"
)

// ProviderStatus says whether a provider's schemes can run here.
type ProviderStatus string

const (
	ProviderAvailable     ProviderStatus = "available"
	ProviderNotCompiled   ProviderStatus = "not compiled in"
	ProviderLibraryAbsent ProviderStatus = "library absent"
)

// ProviderInfo describes one provider: what it is, whether it is here, and
// if not, why and what would bring it.
type ProviderInfo struct {
	Name        Provider       `json:"name"`
	Kind        ProviderKind   `json:"kind"`
	Description string         `json:"description,omitempty"`
	Status      ProviderStatus `json:"status"`
	// Reason explains a status other than available, saying what would
	// make the provider available.
	Reason string `json:"reason,omitempty"`
	// Package is the Debian package that brings the library's headers
	// (and, through its dependencies, the library).
	Package string `json:"debian_package,omitempty"`
	// Library is the library's own version string, read from the loaded
	// library at run time.
	Library string `json:"library,omitempty"`
	// Schemes is how many registered schemes the provider has.
	Schemes int `json:"schemes"`
}

// CProvider is a C-library provider as its package declares it. Load runs
// on the first use of the registry (never at init): it opens the library
// and returns the schemes it offers, or an error saying why it cannot
// (the status is then Status, default ProviderLibraryAbsent).
type CProvider struct {
	Name        Provider
	Description string
	Package     string
	// Status is ProviderNotCompiled when the package was built without
	// the provider (no cgo, or no headers): Load is then nil and Reason
	// says why.
	Status ProviderStatus
	Reason string
	Load   func() (version string, schemes []Scheme, err error)
	// NullCall crosses into C n times to do nothing: the cost of a cgo
	// call, which bench reports in the run's environment.
	NullCall func(n int)
}

// ErrNotCompiledIn is wrapped by a Load error that means the provider was
// built without its library (no headers at build time).
var ErrNotCompiledIn = errors.New("not compiled in")

var cgoNullCall func(n int)

// CgoNullCall returns a function that makes n empty cgo calls, if a C
// provider loaded: what crossing from Go into C costs on this machine.
func CgoNullCall() (func(n int), bool) {
	loadProviders()
	return cgoNullCall, cgoNullCall != nil
}

var (
	cProviders   []*CProvider
	cLoaded      = map[Provider]*ProviderInfo{}
	providerLock sync.Once
)

// RegisterCProvider declares a C-library provider. Call it from the
// provider package's init; nothing is loaded until the registry is used.
func RegisterCProvider(p CProvider) {
	for _, q := range cProviders {
		if q.Name == p.Name {
			panic("scheme: provider " + string(p.Name) + " declared twice")
		}
	}
	cProviders = append(cProviders, &p)
}

// loadProviders loads every declared C provider once, on the first use of
// the registry, and registers the schemes of those that load.
func loadProviders() {
	providerLock.Do(func() {
		for _, p := range cProviders {
			info := &ProviderInfo{Name: p.Name, Kind: KindC, Description: p.Description, Package: p.Package,
				Status: ProviderAvailable}
			cLoaded[p.Name] = info
			if p.Load == nil {
				info.Status, info.Reason = ProviderNotCompiled, p.Reason
				if info.Status == "" || info.Status == ProviderAvailable {
					info.Status = ProviderNotCompiled
				}
				continue
			}
			version, schemes, err := p.Load()
			if err != nil {
				info.Status = ProviderLibraryAbsent
				if errors.Is(err, ErrNotCompiledIn) {
					info.Status = ProviderNotCompiled
				}
				info.Reason = err.Error()
				continue
			}
			if p.NullCall != nil && cgoNullCall == nil {
				cgoNullCall = p.NullCall
			}
			info.Library = version
			for _, s := range schemes {
				if s.Info().Provider != p.Name {
					panic(fmt.Sprintf("scheme: provider %s registers %s", p.Name, s.Info().ID()))
				}
				register(s)
			}
		}
	})
}

// providerKind is the kind of p: C for a declared C provider, Go for every
// other (the registry's own schemes).
func providerKind(p Provider) ProviderKind {
	for _, c := range cProviders {
		if c.Name == p {
			return KindC
		}
	}
	return KindGo
}

// Providers lists every provider: the Go ones that registered schemes, in
// registry order, then every declared C provider, available or not.
func Providers() []ProviderInfo {
	loadProviders()
	count := map[Provider]int{}
	var goOrder []Provider
	for _, s := range registry {
		p := s.Info().Provider
		if count[p] == 0 && providerKind(p) == KindGo {
			goOrder = append(goOrder, p)
		}
		count[p]++
	}
	var out []ProviderInfo
	for _, p := range goOrder {
		out = append(out, ProviderInfo{Name: p, Kind: KindGo, Status: ProviderAvailable, Schemes: count[p],
			Description: goProviderDescription(p)})
	}
	for _, c := range cProviders {
		info := *cLoaded[c.Name]
		info.Schemes = count[c.Name]
		out = append(out, info)
	}
	return out
}

func goProviderDescription(p Provider) string {
	switch p {
	case ProviderGo:
		return "the Go standard library"
	case ProviderXCrypto:
		return "golang.org/x/crypto"
	case ProviderCIRCL:
		return "github.com/cloudflare/circl"
	case ProviderCryptocost:
		return "written in this repository against the standard's vectors"
	}
	return "Go module github.com/" + string(p)
}

// LookupProvider returns the provider named name (case-insensitive), or an
// error that says what is known, or why a known C provider is not here and
// which Debian package brings it.
func LookupProvider(name string) (ProviderInfo, error) {
	all := Providers()
	var names []string
	for _, p := range all {
		if strings.EqualFold(string(p.Name), name) {
			if p.Status != ProviderAvailable {
				return p, &ProviderUnavailableError{Info: p}
			}
			return p, nil
		}
		names = append(names, string(p.Name))
	}
	return ProviderInfo{}, fmt.Errorf("unknown provider %q: have %s (see 'cryptocost list --providers')", name, strings.Join(names, ", "))
}

// ProviderUnavailableError says why a known provider cannot be used here.
type ProviderUnavailableError struct{ Info ProviderInfo }

func (e *ProviderUnavailableError) Error() string {
	msg := fmt.Sprintf("provider %s is %s: %s", e.Info.Name, e.Info.Status, e.Info.Reason)
	if e.Info.Package != "" {
		msg += fmt.Sprintf(" (Debian package %s brings it", e.Info.Package)
		if e.Info.Status == ProviderNotCompiled {
			msg += "; then build with cgo: CGO_ENABLED=1 go build ./cmd/cryptocost; if it is installed already, the Go build cache holds a build from before it: go clean -cache, or build as ./scripts/test does"
		}
		msg += ")"
	}
	return msg
}

// sortPreferred orders the providers of one algorithm: Go implementations
// first, in registration order, then C libraries, so a name without a
// provider resolves to the Go implementation whatever order the provider
// packages registered in.
func sortPreferred(ss []Scheme) {
	slices.SortStableFunc(ss, func(a, b Scheme) int {
		ka, kb := providerKind(a.Info().Provider), providerKind(b.Info().Provider)
		switch {
		case ka == kb:
			return 0
		case ka == KindGo:
			return -1
		}
		return 1
	})
}

// IsCProvider reports whether p is a C-library provider.
func IsCProvider(p Provider) bool { return providerKind(p) == KindC }
