package templatehash

import "testing"

func TestSHA256(t *testing.T) {
	// sha256 of "abc", FIPS 180-2 appendix B.1
	if got, want := SHA256("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"; got != want {
		t.Errorf("SHA256(abc) = %s, want %s", got, want)
	}
}
