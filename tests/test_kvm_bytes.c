/*
 * test_kvm_bytes.c: a core image's numbers in its own byte order, on a
 * machine of either (kvm_bytes.h, kvm_elf_headers.h): integers of each
 * size in both orders; ELF file, program, section and note headers
 * written here in both orders and read back the same; a VMCOREINFO note
 * found in the order it was written in and not in the other; and the
 * handle's reads of the kernel's memory in the image's order.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "kvm/dump/kvm_bytes.h"
#include "kvm/dump/kvm_elf_headers.h"
#include "kvm/dump/kvm_handle.h"
#include "kvm/dump/kvm_vmcoreinfo_text.h"
#include "kvm/kernel/kvm_finders.h"

/* v as n bytes at p, in the order given: as a file of that order holds it. */
static void
put(unsigned char *p, uint64_t v, size_t n, bool big)
{
	for (size_t i = 0; i < n; i++)
		p[big ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

static void
test_uint_in(void **state)
{
	const unsigned char b[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	(void)state;
	assert_true(_memstat_uint_in(b, 8, false) == 0x0807060504030201ULL);
	assert_true(_memstat_uint_in(b, 8, true) == 0x0102030405060708ULL);
	assert_true(_memstat_uint_in(b, 4, false) == 0x04030201);
	assert_true(_memstat_uint_in(b, 4, true) == 0x01020304);
	assert_true(_memstat_uint_in(b, 2, false) == 0x0201);
	assert_true(_memstat_uint_in(b, 2, true) == 0x0102);
	assert_true(_memstat_uint_in(b, 1, true) == 1);
}

/* An ELF core's headers, as bytes of the order given. */
static void
write_ehdr(Elf64_Ehdr *eh, bool big)
{
	unsigned char *p = (unsigned char *)eh;

	memset(eh, 0, sizeof(*eh));
	memcpy(p, ELFMAG, SELFMAG);
	p[EI_CLASS] = ELFCLASS64;
	p[EI_DATA] = big ? ELFDATA2MSB : ELFDATA2LSB;
	p[EI_VERSION] = EV_CURRENT;
	put(p + 16, ET_CORE, 2, big);
	put(p + 18, EM_S390, 2, big);
	put(p + 20, EV_CURRENT, 4, big);
	put(p + 24, 0x1122334455667788ULL, 8, big);	/* e_entry */
	put(p + 32, 64, 8, big);			/* e_phoff */
	put(p + 40, 0x123456789aULL, 8, big);		/* e_shoff */
	put(p + 48, 0xa5a5, 4, big);			/* e_flags */
	put(p + 52, 64, 2, big);
	put(p + 54, sizeof(Elf64_Phdr), 2, big);
	put(p + 56, PN_XNUM, 2, big);
	put(p + 58, sizeof(Elf64_Shdr), 2, big);
	put(p + 60, 1, 2, big);
	put(p + 62, 0, 2, big);
}

static void
test_elf_headers(void **state)
{
	(void)state;
	for (int big = 0; big < 2; big++) {
		Elf64_Ehdr eh;
		Elf64_Phdr ph[2];
		Elf64_Shdr sh;
		Elf64_Nhdr nh;
		unsigned char *p;

		write_ehdr(&eh, big);
		assert_true(_memstat_elf_ehdr(&eh));
		assert_int_equal(_memstat_elf_big(&eh), big);
		assert_int_equal(eh.e_type, ET_CORE);
		assert_int_equal(eh.e_machine, EM_S390);
		assert_true(eh.e_entry == 0x1122334455667788ULL);
		assert_true(eh.e_phoff == 64);
		assert_true(eh.e_shoff == 0x123456789aULL);
		assert_int_equal(eh.e_flags, 0xa5a5);
		assert_int_equal(eh.e_phentsize, sizeof(Elf64_Phdr));
		assert_int_equal(eh.e_phnum, PN_XNUM);
		assert_int_equal(eh.e_shentsize, sizeof(Elf64_Shdr));
		assert_int_equal(eh.e_shnum, 1);

		for (int i = 0; i < 2; i++) {
			p = (unsigned char *)&ph[i];
			put(p, i ? PT_LOAD : PT_NOTE, 4, big);
			put(p + 4, PF_R, 4, big);
			put(p + 8, 0x1000 * (i + 1), 8, big);
			put(p + 16, 0xffff800000000000ULL + (uint64_t)i, 8,
			    big);
			put(p + 24, 0x40000000ULL + (uint64_t)i, 8, big);
			put(p + 32, 0x2000, 8, big);
			put(p + 40, 0x3000, 8, big);
			put(p + 48, 0, 8, big);
		}
		_memstat_elf_phdrs(ph, 2, big);
		assert_int_equal(ph[0].p_type, PT_NOTE);
		assert_int_equal(ph[1].p_type, PT_LOAD);
		assert_int_equal(ph[1].p_flags, PF_R);
		assert_true(ph[1].p_offset == 0x2000);
		assert_true(ph[1].p_vaddr == 0xffff800000000001ULL);
		assert_true(ph[1].p_paddr == 0x40000001ULL);
		assert_true(ph[1].p_filesz == 0x2000);
		assert_true(ph[1].p_memsz == 0x3000);

		p = (unsigned char *)&sh;
		memset(&sh, 0, sizeof(sh));
		put(p + 44, 70000, 4, big);	/* sh_info: PN_XNUM's */
		put(p + 32, 0x777, 8, big);	/* sh_size */
		_memstat_elf_shdr(&sh, big);
		assert_int_equal(sh.sh_info, 70000);
		assert_true(sh.sh_size == 0x777);

		p = (unsigned char *)&nh;
		put(p, 11, 4, big);
		put(p + 4, 300, 4, big);
		put(p + 8, 0, 4, big);
		_memstat_elf_nhdr(&nh, big);
		assert_int_equal(nh.n_namesz, 11);
		assert_int_equal(nh.n_descsz, 300);
	}
}

/* No 64-bit ELF header of either order: untouched, and said so. */
static void
test_elf_header_refused(void **state)
{
	Elf64_Ehdr eh, copy;

	(void)state;
	write_ehdr(&eh, false);
	eh.e_ident[EI_CLASS] = ELFCLASS32;
	copy = eh;
	assert_false(_memstat_elf_ehdr(&eh));
	assert_memory_equal(&eh, &copy, sizeof(eh));
	write_ehdr(&eh, true);
	eh.e_ident[EI_DATA] = ELFDATANONE;
	assert_false(_memstat_elf_ehdr(&eh));
	eh.e_ident[EI_DATA] = 3;
	assert_false(_memstat_elf_ehdr(&eh));
}

/* A note "VMCOREINFO" after another, its header in the order given. */
static size_t
write_notes(unsigned char *p, bool big)
{
	static const char text[] = "OSRELEASE=7.2.0\nPAGESIZE=4096\n";
	size_t at = 0;

	put(p, 5, 4, big);			/* "CORE" and its NUL */
	put(p + 4, 8, 4, big);
	put(p + 8, 1, 4, big);
	memcpy(p + 12, "CORE", 5);
	at = 12 + 8 + 8;
	put(p + at, sizeof("VMCOREINFO"), 4, big);
	put(p + at + 4, sizeof(text) - 1, 4, big);
	put(p + at + 8, 0, 4, big);
	memcpy(p + at + 12, "VMCOREINFO", sizeof("VMCOREINFO"));
	memcpy(p + at + 24, text, sizeof(text) - 1);
	return (at + 24 + ((sizeof(text) - 1 + 3) & ~(size_t)3));
}

static void
test_notes_in_order(void **state)
{
	unsigned char notes[256];
	char *text;

	(void)state;
	for (int big = 0; big < 2; big++) {
		size_t len;

		memset(notes, 0, sizeof(notes));
		len = write_notes(notes, big);
		text = NULL;
		assert_int_equal(_memstat_vmcoreinfo_in_notes(notes, len, big,
		    &text), 0);
		assert_non_null(text);
		assert_string_equal(text,
		    "OSRELEASE=7.2.0\nPAGESIZE=4096\n");
		free(text);
		/* Read in the other order, the sizes run past the end. */
		text = NULL;
		assert_int_equal(_memstat_vmcoreinfo_in_notes(notes, len, !big,
		    &text), 0);
		assert_null(text);
	}
}

/* Physical memory of 256 bytes at 0x4000: a note written in it. */
static bool
notes_read(void *arg, uint64_t paddr, void *buf, size_t len)
{
	if (paddr < 0x4000 || paddr - 0x4000 > 256 ||
	    len > 256 - (paddr - 0x4000))
		return (false);
	memcpy(buf, (unsigned char *)arg + (paddr - 0x4000), len);
	return (true);
}

/*
 * The kernel's note in memory, in its own order whichever the dump's
 * header said: QEMU 7.2 labels a little-endian ppc64 guest's dump
 * big-endian, and the note says which the kernel's is.
 */
static void
test_note_in_memory_either_order(void **state)
{
	unsigned char mem[256];
	char *text;

	(void)state;
	for (int big = 0; big < 2; big++) {
		for (int said = 0; said < 2; said++) {
			bool order = said;

			memset(mem, 0, sizeof(mem));
			(void)write_notes(mem, big);
			/* The second note, after "CORE"'s 28 bytes. */
			assert_int_equal(_memstat_vmcoreinfo_note_at(notes_read,
			    mem, 0x401c, &order, &text), 0);
			assert_string_equal(text,
			    "OSRELEASE=7.2.0\nPAGESIZE=4096\n");
			assert_int_equal(order, big);
			free(text);
		}
		/* Another note ("CORE"): the order said stays. */
		bool order = !big;

		assert_int_equal(_memstat_vmcoreinfo_note_at(notes_read, mem,
		    0x4000, &order, &text), 1);
		assert_int_equal(order, !big);
		assert_null(text);
	}
}

/* Kernel memory of 16 bytes at 0x1000, read through the handle. */
static const unsigned char memory[16] = {
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0xf0, 0xff, 0xff, 0xff, 0x80, 0x00, 0x00, 0x00,
};

static int
memory_read(struct memstat_kvm *kvm, uint64_t addr, void *buf, size_t len)
{
	if (addr < 0x1000 || addr - 0x1000 > sizeof(memory) ||
	    len > sizeof(memory) - (addr - 0x1000))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_SHORTREAD,
		    "not in memory"));
	memcpy(buf, memory + (addr - 0x1000), len);
	return (0);
}

static const struct kvm_reader memory_reader = {
	.name = "test memory",
	.read = memory_read,
};

static void
test_handle_reads_in_order(void **state)
{
	struct memstat_kvm kvm = { .reader = &memory_reader };
	struct kvm_member word = { .offset = 8, .size = 4 };
	struct kvm_member bits = { .offset = 12, .size = 4 };
	uint64_t v64;
	uint32_t v32;

	(void)state;
	assert_int_equal(_memstat_kvm_read_u64(&kvm, 0x1000, &v64), 0);
	assert_true(v64 == 0x0807060504030201ULL);
	assert_int_equal(_memstat_kvm_read_u32(&kvm, 0x1008, &v32), 0);
	assert_int_equal(v32, 0xfffffff0);
	assert_true(_memstat_kvm_member_of(&kvm, memory, &word) ==
	    0xfffffff0);
	/* Bits 7 to 0 of a little-endian word: its first byte. */
	bits.bit_shift = 0;
	bits.bit_size = 8;
	assert_true(_memstat_kvm_member_of(&kvm, memory, &bits) == 0x80);

	kvm.arch.big_endian = true;
	assert_int_equal(_memstat_kvm_read_u64(&kvm, 0x1000, &v64), 0);
	assert_true(v64 == 0x0102030405060708ULL);
	assert_int_equal(_memstat_kvm_read_u32(&kvm, 0x1008, &v32), 0);
	assert_int_equal(v32, 0xf0ffffff);
	/* The same first byte, the top of a big-endian word. */
	bits.bit_shift = 24;
	assert_true(_memstat_kvm_member_of(&kvm, memory, &bits) == 0x80);
	assert_int_equal(_memstat_kvm_read_u64(&kvm, 0x100c, &v64), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uint_in),
		cmocka_unit_test(test_elf_headers),
		cmocka_unit_test(test_elf_header_refused),
		cmocka_unit_test(test_notes_in_order),
		cmocka_unit_test(test_note_in_memory_either_order),
		cmocka_unit_test(test_handle_reads_in_order),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
