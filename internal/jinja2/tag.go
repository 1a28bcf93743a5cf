package jinja2

// TaggedStr returns the str s carrying tag, an opaque value (a pointer) that every copy
// of the str keeps: compile-time tools use it to follow input strings through a render,
// as strings have no identity of their own. A tagged str behaves exactly as Str(s).
func TaggedStr(s string, tag any) Value {
	return boxStr(KindString, 0, &boxedStr{s: s, tag: tag})
}

// Tag returns what identifies v through a render: the tag of a str made by TaggedStr
// (nil for any other str), the storage of a list or tuple (*List), the *Dict of a dict,
// the *Namespace of a namespace; nil for other values.
func (v Value) Tag() any {
	switch v.kind() {
	case KindString:
		if v.strFlags()&flagBoxed != 0 {
			return v.boxed().tag
		}
	case KindList, KindTuple:
		return v.list()
	case KindDict:
		return v.dict()
	case KindNamespace:
		return v.namespace()
	}
	return nil
}
