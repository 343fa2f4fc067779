//go:build freebsd || netbsd || openbsd

package measure

const isDarwin = false
