// Package templatehash computes the key a registry of compiled templates finds a
// template by: the hex sha256 of its text. It is apart from package jinja2 so that
// runtime, what generated code calls, needs no cryptography (crypto/sha256 brings the
// standard library's FIPS module with it); a generated package's LookupText calls it.
package templatehash

import (
	"crypto/sha256"
	"encoding/hex"
)

// SHA256 returns the hex sha256 of a template's text.
func SHA256(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}
