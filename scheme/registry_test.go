package scheme

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// sizeCheckers verify, per family, that the sizes a scheme declares are the
// sizes its operations produce. Each family's test file adds its checker.
var sizeCheckers = map[Family]func(t *testing.T, s Scheme){}

func TestEveryFamilyHasASizeChecker(t *testing.T) {
	for _, s := range All() {
		if sizeCheckers[s.Info().Family] == nil {
			t.Errorf("family %s (of %s) has no size checker in its _test.go file", s.Info().Family, s.Info().ID())
		}
	}
}

func TestKnownAnswers(t *testing.T) {
	for _, s := range All() {
		t.Run(s.Info().ID(), func(t *testing.T) {
			t.Parallel()
			if err := s.KAT(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestDeclaredSizes(t *testing.T) {
	for _, s := range All() {
		t.Run(s.Info().ID(), func(t *testing.T) {
			if check := sizeCheckers[s.Info().Family]; check != nil {
				check(t, s)
			}
		})
	}
}

func TestInfoComplete(t *testing.T) {
	for _, s := range All() {
		info := s.Info()
		id := info.ID()
		if info.Name == "" || info.Family == "" || info.Provider == "" {
			t.Errorf("%s: name, family and provider are required", id)
		}
		if info.Standard == "" {
			t.Errorf("%s: no Standard: say which document defines it and where its vectors come from", id)
		}
		if info.Security.Bits == 0 && info.Legacy == "" {
			t.Errorf("%s: security 0 bits but not marked legacy", id)
		}
		if info.Security.Bits > 0 && info.Security.Bits < 112 && info.Legacy == "" {
			t.Errorf("%s: %d-bit security is below SP 800-57's 112-bit floor but not marked legacy", id, info.Security.Bits)
		}
		if len(s.Operations()) == 0 {
			t.Errorf("%s: no operations", id)
		}
		seen := map[string]bool{}
		for _, op := range s.Operations() {
			if seen[op.Name] {
				t.Errorf("%s: operation %s listed twice", id, op.Name)
			}
			seen[op.Name] = true
			if op.Prepare == nil {
				t.Errorf("%s: operation %s has no Prepare", id, op.Name)
			}
		}
	}
}

// TestOperationsRun prepares every operation at a small valid size, for two
// variants, and runs it twice. Slow operations (RSA-4096 key generation and
// the like) run only with CRYPTOCOST_SLOW_TESTS=1: their code paths are the
// ones the smaller sizes exercise.
func TestOperationsRun(t *testing.T) {
	slow := os.Getenv("CRYPTOCOST_SLOW_TESTS") == "1"
	for _, s := range All() {
		for _, op := range s.Operations() {
			t.Run(s.Info().ID()+"/"+op.Name, func(t *testing.T) {
				if op.Slow && (!slow || testing.Short()) {
					t.Skip("slow operation: set CRYPTOCOST_SLOW_TESTS=1 to run it")
				}
				t.Parallel()
				size := 0
				if op.Input != InputNone {
					size = max(op.MinSize, op.Multiple, 64)
					if op.Multiple > 0 {
						size = (size + op.Multiple - 1) / op.Multiple * op.Multiple
					}
					if op.MaxSize > 0 {
						size = min(size, op.MaxSize)
					}
				}
				for variant := range 2 {
					loop, err := op.Prepare(Args{Size: size, Variant: variant})
					if err != nil {
						t.Fatalf("prepare size %d: %v", size, err)
					}
					if err := loop(2); err != nil {
						t.Fatalf("run: %v", err)
					}
				}
			})
		}
	}
}

func TestByName(t *testing.T) {
	for _, tc := range []struct{ query, want string }{
		{"sha256", "SHA-256"},
		{"SHA-256", "SHA-256"},
		{"Sha_256", "SHA-256"},
		{"sha1", "SHA-1"},
		{"md5@go", "MD5"},
	} {
		ss, err := ByName(tc.query)
		if err != nil {
			t.Errorf("ByName(%q): %v", tc.query, err)
			continue
		}
		if got := ss[0].Info().Name; got != tc.want {
			t.Errorf("ByName(%q) = %s, want %s", tc.query, got, tc.want)
		}
	}
}

func TestUnknownNameSuggests(t *testing.T) {
	_, err := ByName("sha265")
	var u *UnknownNameError
	if !errors.As(err, &u) {
		t.Fatalf("ByName(sha265) error = %v, want *UnknownNameError", err)
	}
	if len(u.Closest) == 0 || u.Closest[0] != "SHA-256" {
		t.Errorf("closest to sha265 = %v, want SHA-256 first", u.Closest)
	}
	if !strings.Contains(err.Error(), "cryptocost list") {
		t.Errorf("error %q does not point at 'cryptocost list'", err)
	}
	if _, err := ByName("md5@nowhere"); err == nil || !strings.Contains(err.Error(), "MD5@go") {
		t.Errorf("unknown provider error = %v, want the providers listed", err)
	}
}

func TestMatch(t *testing.T) {
	ss, err := Match("sha3-*")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ss {
		if !strings.HasPrefix(s.Info().Name, "SHA3-") {
			t.Errorf("sha3-* matched %s", s.Info().Name)
		}
	}
	if len(ss) < 2 {
		t.Errorf("sha3-* matched %d schemes, want at least 2", len(ss))
	}
	if _, err := Match("nothing*here"); err == nil {
		t.Error("a pattern matching nothing is not an error")
	}
	if _, err := Match("[bad"); err == nil {
		t.Error("a malformed pattern is not an error")
	}
}

func TestNaturalCompare(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		less bool
	}{
		{"RSA-512", "RSA-1024", true},
		{"RSA-2048", "RSA-1024", false},
		{"AES-128", "AES-256", true},
		{"aes-128", "AES-192", true},
	} {
		if got := naturalCompare(tc.a, tc.b) < 0; got != tc.less {
			t.Errorf("naturalCompare(%q, %q) < 0 = %v, want %v", tc.a, tc.b, got, tc.less)
		}
	}
}

func TestCheckSize(t *testing.T) {
	op := Operation{Name: "encrypt-cbc", Input: InputBulk, Multiple: 16}
	if err := op.CheckSize(64); err != nil {
		t.Errorf("64: %v", err)
	}
	err := op.CheckSize(100)
	if err == nil || !strings.Contains(err.Error(), "use 96 or 112") {
		t.Errorf("100: error %v, want a suggestion of 96 or 112", err)
	}
}
