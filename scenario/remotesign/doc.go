// Package remotesign is a cryptocost scenario (see package scenario).
package remotesign
