/*
 * kvm_vmcoreinfo_text.c: VMCOREINFO's text, found and read (see
 * kvm_vmcoreinfo_text.h).
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvm/dump/kvm_elf_headers.h"
#include "kvm/dump/kvm_vmcoreinfo_text.h"

int
_memstat_vmcoreinfo_in_notes(const unsigned char *notes, size_t len,
    bool big, char **text)
{
	size_t off = 0, namesz, descsz, desc_off;
	Elf64_Nhdr nh;

	while (len - off >= sizeof(nh)) {
		memcpy(&nh, notes + off, sizeof(nh));
		_memstat_elf_nhdr(&nh, big);
		namesz = nh.n_namesz;
		descsz = nh.n_descsz;
		off += sizeof(nh);
		if (namesz > len - off)
			break;
		desc_off = off + ((namesz + 3) & ~(size_t)3);
		if (desc_off > len || descsz > len - desc_off)
			break;
		if (namesz == sizeof("VMCOREINFO") &&
		    memcmp(notes + off, "VMCOREINFO", namesz) == 0) {
			if ((*text = malloc(descsz + 1)) == NULL)
				return (-1);
			memcpy(*text, notes + desc_off, descsz);
			(*text)[descsz] = '\0';
			return (0);
		}
		off = desc_off + ((descsz + 3) & ~(size_t)3);
		if (off > len)
			break;
	}
	return (0);
}

/*
 * The note's header and name; its text is at most VMCOREINFO_BYTES, a
 * page of the kernel's, 64 KiB at most.
 */
#define NOTE_HEAD	(sizeof(Elf64_Nhdr) + sizeof("VMCOREINFO") + 1)
#define NOTE_TEXT_MAX	(64u << 10)

/* Whether head is a VMCOREINFO note's header read in the order big says. */
static bool
note_head(const unsigned char *head, bool big, Elf64_Nhdr *nh)
{
	memcpy(nh, head, sizeof(*nh));
	_memstat_elf_nhdr(nh, big);
	return (nh->n_namesz == sizeof("VMCOREINFO") && nh->n_type == 0 &&
	    nh->n_descsz != 0 && nh->n_descsz <= NOTE_TEXT_MAX);
}

int
_memstat_vmcoreinfo_note_at(bool (*read)(void *arg, uint64_t paddr,
    void *buf, size_t len), void *arg, uint64_t paddr, bool *bigp,
    char **text)
{
	unsigned char head[NOTE_HEAD], *note;
	size_t len, vlen;
	Elf64_Nhdr nh;
	bool big = *bigp;
	int rc = 1;

	*text = NULL;
	if (!read(arg, paddr, head, sizeof(head)) ||
	    memcmp(head + sizeof(nh), "VMCOREINFO", sizeof("VMCOREINFO")) != 0)
		return (1);
	if (!note_head(head, big, &nh) && !note_head(head, big = !big, &nh))
		return (1);
	len = sizeof(head) + nh.n_descsz;
	if ((note = malloc(len)) == NULL)
		return (-1);
	if (read(arg, paddr, note, len)) {
		if (_memstat_vmcoreinfo_in_notes(note, len, big, text) != 0)
			rc = -1;
		else if (*text != NULL && _memstat_vmcoreinfo_value(*text,
		    "OSRELEASE", &vlen) != NULL) {
			*bigp = big;
			rc = 0;
		}
	}
	free(note);
	if (rc != 0) {
		free(*text);
		*text = NULL;
	}
	return (rc);
}

const char *
_memstat_vmcoreinfo_value(const char *text, const char *key, size_t *len)
{
	size_t klen = strlen(key);

	for (const char *p = text; *p != '\0'; ) {
		const char *nl = strchr(p, '\n');
		size_t llen = nl != NULL ? (size_t)(nl - p) : strlen(p);

		if (llen > klen && memcmp(p, key, klen) == 0 &&
		    p[klen] == '=') {
			*len = llen - klen - 1;
			return (p + klen + 1);
		}
		p += llen + (nl != NULL);
	}
	return (NULL);
}

int
_memstat_vmcoreinfo_line(const char *text, const char *key, char *buf,
    size_t len)
{
	const char *val;
	size_t n;

	if ((val = _memstat_vmcoreinfo_value(text, key, &n)) == NULL ||
	    n >= len)
		return (-1);
	memcpy(buf, val, n);
	buf[n] = '\0';
	return (0);
}

int
_memstat_vmcoreinfo_symbol(const char *text, const char *name,
    uint64_t *addr)
{
	char key[256], val[32], *end;

	if (snprintf(key, sizeof(key), "SYMBOL(%s)", name) >=
	    (int)sizeof(key) ||
	    _memstat_vmcoreinfo_line(text, key, val, sizeof(val)) != 0 ||
	    val[0] == '\0')
		return (-1);
	errno = 0;
	*addr = strtoull(val, &end, 16);
	return (*end != '\0' || errno != 0 ? -1 : 0);
}
