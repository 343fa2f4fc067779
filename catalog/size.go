package catalog

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize parses a byte count as the tool's flags write it: "16", "1k",
// "400K", "1m", "2MiB" (k = 1024). It is the one size parser of the tool:
// bench --sizes, radio simulate --transfer and the scenarios all read sizes
// with it.
func ParseSize(s string) (int, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := 1
	for _, suf := range []struct {
		s string
		m int
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"kb", 1 << 10}, {"mb", 1 << 20}, {"k", 1 << 10}, {"m", 1 << 20}, {"b", 1}} {
		if strings.HasSuffix(t, suf.s) {
			t, mult = strings.TrimSuffix(t, suf.s), suf.m
			break
		}
	}
	n, err := strconv.Atoi(t)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad size %q: want a byte count such as 16, 1k or 400k", s)
	}
	if int64(n) > int64(1<<31)/int64(mult) {
		return 0, fmt.Errorf("size %q is too large (limit 2 GiB)", s)
	}
	return n * mult, nil
}

// ParseSizes parses a list of sizes with ParseSize, stopping at the first
// bad one.
func ParseSizes(list []string) ([]int, error) {
	var out []int
	for _, s := range list {
		n, err := ParseSize(s)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}
