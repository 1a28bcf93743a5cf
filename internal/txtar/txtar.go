// Package txtar reads and writes txtar archives, the format of golang.org/x/tools/txtar:
// a comment, then files, each starting with a line "-- NAME --". The project's golden
// cases are txtar archives (testdata/codegen/cases).
package txtar

import (
	"bytes"
	"strings"
)

// An Archive is a comment and a list of files.
type Archive struct {
	Comment []byte
	Files   []File
}

// A File is one file of an archive.
type File struct {
	Name string
	Data []byte
}

// Parse reads an archive. Every file's data ends with a newline (one is added where the
// text lacks it).
func Parse(data []byte) *Archive {
	a := &Archive{}
	var cur *File
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		if name, ok := marker(line); ok {
			a.Files = append(a.Files, File{Name: name})
			cur = &a.Files[len(a.Files)-1]
			continue
		}
		if cur == nil {
			a.Comment = append(a.Comment, line...)
		} else {
			cur.Data = append(cur.Data, line...)
		}
	}
	for i := range a.Files {
		if d := a.Files[i].Data; len(d) > 0 && d[len(d)-1] != '\n' {
			a.Files[i].Data = append(d, '\n')
		}
	}
	return a
}

// marker returns the name of a file marker line "-- NAME --".
func marker(line []byte) (string, bool) {
	s := strings.TrimRight(string(line), "\r\n")
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < len("-- x --") {
		return "", false
	}
	return strings.TrimSpace(s[3 : len(s)-3]), true
}

// Format writes an archive.
func Format(a *Archive) []byte {
	var b bytes.Buffer
	b.Write(a.Comment)
	for _, f := range a.Files {
		b.WriteString("-- " + f.Name + " --\n")
		b.Write(f.Data)
		if len(f.Data) > 0 && f.Data[len(f.Data)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// Get returns the data of the file named name, and whether the archive has it.
func (a *Archive) Get(name string) ([]byte, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// Set sets the data of the file named name, adding the file at the end when the archive
// lacks it.
func (a *Archive) Set(name string, data []byte) {
	for i, f := range a.Files {
		if f.Name == name {
			a.Files[i].Data = data
			return
		}
	}
	a.Files = append(a.Files, File{Name: name, Data: data})
}
