; Swift-shaped DWARF 4 for an arm64 iOS executable (spec/ios.md 7): a unit with
; DW_LANG_Swift whose functions carry Swift linkage names, declared inside module, class,
; struct and enum DIEs and defined at unit level through DW_AT_specification (forward and
; backward), defined inside their type, and one inlined through an abstract instance.
; No Swift compiler is packaged in Debian: hand-written, assembled by clang-14, linked by
; ld64.lld-14, dSYM by dsymutil-14 (tests/gen/ios-fixtures.sh).
	.section	__TEXT,__text,regular,pure_instructions
	.build_version ios, 14, 0
	.file	1 "/src" "View.swift"
	.globl	"_$s5MyApp4ViewC5InnerV2goyyF"
	.p2align	2
"_$s5MyApp4ViewC5InnerV2goyyF":
Lf_go:
	.loc	1 12 0
	nop
	ret
Lf_go_end:
	.globl	"_$s5MyApp4ViewC4loadyyF"
	.p2align	2
"_$s5MyApp4ViewC4loadyyF":
Lf_load:
	.loc	1 4 0
	nop
Lin_helper:
	.loc	1 20 0
	add	x0, x0, #1
Lin_helper_end:
	.loc	1 5 0
	ret
Lf_load_end:
	.globl	"_$s5MyApp5ModelV4saveyyF"
	.p2align	2
"_$s5MyApp5ModelV4saveyyF":
Lf_save:
	.loc	1 22 0
	nop
	ret
Lf_save_end:
	.globl	"_$s5MyApp4ModeO4nextACyF"
	.p2align	2
"_$s5MyApp4ModeO4nextACyF":
Lf_next:
	.loc	1 30 0
	nop
	ret
Lf_next_end:
	.globl	"_$s5MyApp3runyyF"
	.p2align	2
"_$s5MyApp3runyyF":
Lf_run:
	.loc	1 40 0
	nop
	ret
Lf_run_end:
	.globl	_main
	.p2align	2
_main:
Lf_main:
	.loc	1 50 0
	mov	w0, #0
	ret
Lf_main_end:

	.section	__DWARF,__debug_abbrev,regular,debug
Lsection_abbrev:
	.byte 1, 0x11, 1        ; compile_unit, children
	.byte 0x25, 0x0e, 0x13, 0x05, 0x03, 0x0e, 0x10, 0x17, 0x1b, 0x0e, 0x11, 0x01, 0x12, 0x06
	.byte 0, 0
	.byte 2, 0x1e, 1        ; module: name
	.byte 0x03, 0x0e
	.byte 0, 0
	.byte 3, 0x02, 1        ; class_type: name, linkage_name
	.byte 0x03, 0x0e, 0x6e, 0x0e
	.byte 0, 0
	.byte 4, 0x13, 1        ; structure_type: name, linkage_name
	.byte 0x03, 0x0e, 0x6e, 0x0e
	.byte 0, 0
	.byte 5, 0x04, 1        ; enumeration_type: name, linkage_name
	.byte 0x03, 0x0e, 0x6e, 0x0e
	.byte 0, 0
	.byte 6, 0x28, 0        ; enumerator: name, const_value
	.byte 0x03, 0x0e, 0x1c, 0x0b
	.byte 0, 0
	.byte 7, 0x2e, 0        ; subprogram declaration
	.byte 0x6e, 0x0e, 0x03, 0x0e, 0x3a, 0x0b, 0x3b, 0x0b, 0x3c, 0x19, 0x3f, 0x19
	.byte 0, 0
	.byte 8, 0x2e, 1        ; definition by specification, children
	.byte 0x11, 0x01, 0x12, 0x06, 0x40, 0x18, 0x47, 0x13
	.byte 0, 0
	.byte 9, 0x2e, 0        ; definition by specification
	.byte 0x11, 0x01, 0x12, 0x06, 0x40, 0x18, 0x47, 0x13
	.byte 0, 0
	.byte 10, 0x2e, 0       ; definition with its own names
	.byte 0x11, 0x01, 0x12, 0x06, 0x40, 0x18, 0x6e, 0x0e, 0x03, 0x0e, 0x3a, 0x0b, 0x3b, 0x0b, 0x3f, 0x19
	.byte 0, 0
	.byte 11, 0x2e, 0       ; abstract instance: specification, inline
	.byte 0x47, 0x13, 0x20, 0x0b
	.byte 0, 0
	.byte 12, 0x1d, 0       ; inlined_subroutine
	.byte 0x31, 0x13, 0x11, 0x01, 0x12, 0x06, 0x58, 0x0b, 0x59, 0x0b
	.byte 0, 0
	.byte 13, 0x2e, 0       ; a definition with a plain name only
	.byte 0x11, 0x01, 0x12, 0x06, 0x40, 0x18, 0x03, 0x0e, 0x3a, 0x0b, 0x3b, 0x0b, 0x3f, 0x19
	.byte 0, 0
	.byte 0

	.section	__DWARF,__debug_info,regular,debug
Lsection_info:
Lcu:
.set Lset_len, Lcu_end-Lcu_start
	.long	Lset_len
Lcu_start:
	.short	4
.set Lset_ab, Lsection_abbrev-Lsection_abbrev
	.long	Lset_ab
	.byte	8
	.byte	1                       ; compile_unit
.set Ls0, Ls_producer-Lstr
	.long	Ls0
	.short	0x1e                    ; DW_LANG_Swift
.set Ls1, Ls_file-Lstr
	.long	Ls1
.set Ls2, Lline_table_start0-Lsection_line
	.long	Ls2
.set Ls3, Ls_dir-Lstr
	.long	Ls3
	.quad	Lf_go
.set Ls4, Lf_main_end-Lf_go
	.long	Ls4
; a definition before its declaration (forward reference)
	.byte	9
	.quad	Lf_go
.set Ls5, Lf_go_end-Lf_go
	.long	Ls5
	.byte	1, 0x6d
.set Ls6, Ld_go-Lcu
	.long	Ls6
	.byte	2                       ; module MyApp
.set Ls7, Ls_myapp-Lstr
	.long	Ls7
	.byte	3                       ; class View
.set Ls8, Ls_view-Lstr
	.long	Ls8
.set Ls9, Ls_viewty-Lstr
	.long	Ls9
Ld_load:
	.byte	7
.set Ls10, Ls_loadm-Lstr
	.long	Ls10
.set Ls11, Ls_load-Lstr
	.long	Ls11
	.byte	1, 3
	.byte	4                       ; struct View.Inner
.set Ls12, Ls_inner-Lstr
	.long	Ls12
.set Ls13, Ls_innerty-Lstr
	.long	Ls13
Ld_go:
	.byte	7
.set Ls14, Ls_gom-Lstr
	.long	Ls14
.set Ls15, Ls_go-Lstr
	.long	Ls15
	.byte	1, 11
	.byte	0                       ; end of Inner
	.byte	0                       ; end of View
	.byte	4                       ; struct Model
.set Ls16, Ls_model-Lstr
	.long	Ls16
.set Ls17, Ls_modelty-Lstr
	.long	Ls17
Ld_helper:
	.byte	7
.set Ls18, Ls_helperm-Lstr
	.long	Ls18
.set Ls19, Ls_helper-Lstr
	.long	Ls19
	.byte	1, 19
	.byte	10                      ; Model.save defined inside its type
	.quad	Lf_save
.set Ls20, Lf_save_end-Lf_save
	.long	Ls20
	.byte	1, 0x6d
.set Ls21, Ls_savem-Lstr
	.long	Ls21
.set Ls22, Ls_save-Lstr
	.long	Ls22
	.byte	1, 21
	.byte	0                       ; end of Model
	.byte	5                       ; enum Mode
.set Ls23, Ls_mode-Lstr
	.long	Ls23
.set Ls24, Ls_modety-Lstr
	.long	Ls24
	.byte	6
.set Ls25, Ls_a-Lstr
	.long	Ls25
	.byte	0
Ld_next:
	.byte	7
.set Ls26, Ls_nextm-Lstr
	.long	Ls26
.set Ls27, Ls_next-Lstr
	.long	Ls27
	.byte	1, 29
	.byte	0                       ; end of Mode
	.byte	10                      ; a module-level function
	.quad	Lf_run
.set Ls28, Lf_run_end-Lf_run
	.long	Ls28
	.byte	1, 0x6d
.set Ls29, Ls_runm-Lstr
	.long	Ls29
.set Ls30, Ls_run-Lstr
	.long	Ls30
	.byte	1, 39
	.byte	0                       ; end of MyApp
La_helper:
	.byte	11                      ; abstract instance of Model.helper
.set Ls31, Ld_helper-Lcu
	.long	Ls31
	.byte	3                       ; DW_INL_declared_inlined
	.byte	8                       ; View.load
	.quad	Lf_load
.set Ls32, Lf_load_end-Lf_load
	.long	Ls32
	.byte	1, 0x6d
.set Ls33, Ld_load-Lcu
	.long	Ls33
	.byte	12                      ; Model.helper inlined
.set Ls34, La_helper-Lcu
	.long	Ls34
	.quad	Lin_helper
.set Ls35, Lin_helper_end-Lin_helper
	.long	Ls35
	.byte	1, 4
	.byte	0                       ; end of View.load
	.byte	9                       ; Mode.next
	.quad	Lf_next
.set Ls36, Lf_next_end-Lf_next
	.long	Ls36
	.byte	1, 0x6d
.set Ls37, Ld_next-Lcu
	.long	Ls37
	.byte	13                      ; main
	.quad	Lf_main
.set Ls38, Lf_main_end-Lf_main
	.long	Ls38
	.byte	1, 0x6d
.set Ls39, Ls_main-Lstr
	.long	Ls39
	.byte	1, 49
	.byte	0                       ; end of the unit
Lcu_end:

	.section	__DWARF,__debug_str,regular,debug
Lstr:
Ls_producer:	.asciz "Swift version 5.9 (swiftlang-5.9.0.128.108)"
Ls_file:	.asciz "View.swift"
Ls_dir:	.asciz "/src"
Ls_myapp:	.asciz "MyApp"
Ls_view:	.asciz "View"
Ls_viewty:	.asciz "$s5MyApp4ViewCD"
Ls_load:	.asciz "load"
Ls_loadm:	.asciz "$s5MyApp4ViewC4loadyyF"
Ls_inner:	.asciz "Inner"
Ls_innerty:	.asciz "$s5MyApp4ViewC5InnerVD"
Ls_go:	.asciz "go"
Ls_gom:	.asciz "$s5MyApp4ViewC5InnerV2goyyF"
Ls_model:	.asciz "Model"
Ls_modelty:	.asciz "$s5MyApp5ModelVD"
Ls_helper:	.asciz "helper"
Ls_helperm:	.asciz "$s5MyApp5ModelV6helperyyF"
Ls_save:	.asciz "save"
Ls_savem:	.asciz "$s5MyApp5ModelV4saveyyF"
Ls_mode:	.asciz "Mode"
Ls_modety:	.asciz "$s5MyApp4ModeOD"
Ls_a:	.asciz "a"
Ls_next:	.asciz "next"
Ls_nextm:	.asciz "$s5MyApp4ModeO4nextACyF"
Ls_run:	.asciz "run"
Ls_runm:	.asciz "$s5MyApp3runyyF"
Ls_main:	.asciz "main"
.subsections_via_symbols
	.section	__DWARF,__debug_line,regular,debug
Lsection_line:
Lline_table_start0:
