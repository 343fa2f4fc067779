package device

import "testing"

// Tier: fast. "host" is a property of a profile, not a name: exactly the
// built-in host.yaml says host: true, and it is filled from this process.
func TestHostIsAField(t *testing.T) {
	var hosts []string
	for _, d := range All() {
		if d.Host {
			hosts = append(hosts, d.Name)
		}
	}
	if len(hosts) != 1 || Host() == nil || Host().Name != hosts[0] {
		t.Fatalf("devices with host: true = %v, Host() = %v; want exactly one", hosts, Host())
	}
	if Host().CPU.GOARCH == nil {
		t.Error("the host profile's architecture was not read from the running process")
	}
	d, err := Parse("mine.yaml", []byte("name: my-laptop\nhost: true\ntitle: mine\ncpu: {arch: amd64, clock: \"2 GHz [unverified]\", cores: \"4 [unverified]\"}\nsupply: {voltage: \"12 V [unverified]\"}\npower: {active: \"10 W [unverified]\", idle: \"2 W [unverified]\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !d.Host {
		t.Error("a user profile's host: true was not read")
	}
}
