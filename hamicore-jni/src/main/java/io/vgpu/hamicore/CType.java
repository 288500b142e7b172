package io.vgpu.hamicore;

/**
 * A C type as x86_64/aarch64 gcc lays it out: its spelling, {@code sizeof} and {@code _Alignof}.
 * Arrays keep their element type so that field tables can report count and stride.
 *
 * @param name    the C spelling, e.g. {@code _Atomic uint64_t} or {@code char[16][96]}
 * @param size    sizeof, in bytes
 * @param align   _Alignof, in bytes
 * @param element the element type of an array, null for a scalar or struct
 * @param count   the element count of an array, 0 for a scalar or struct
 */
record CType(String name, int size, int align, CType element, int count) {

    static final CType CHAR = scalar("char", 1);
    static final CType INT = scalar("int", 4);
    static final CType INT32 = scalar("int32_t", 4);
    static final CType UINT32 = scalar("uint32_t", 4);
    static final CType UINT64 = scalar("uint64_t", 8);
    static final CType SIZE_T = scalar("size_t", 8);
    /** glibc's sem_t: 32 bytes, 8-byte aligned (HAMi-core spec §1.1). */
    static final CType SEM_T = new CType("sem_t", 32, 8, null, 0);

    static CType scalar(String name, int size) {
        return new CType(name, size, size, null, 0);
    }

    static CType struct(String name, int size, int align) {
        return new CType(name, size, align, null, 0);
    }

    /** {@code _Atomic T}: same size and alignment as T for the lock-free types used here. */
    CType atomic() {
        return new CType("_Atomic " + name, size, align, null, 0);
    }

    /** {@code T[n]}; an array of arrays is spelled the C way, outer count first: {@code char[16][96]}. */
    CType array(int n) {
        int bracket = name.indexOf('[');
        String spelled = bracket < 0
                ? name + "[" + n + "]"
                : name.substring(0, bracket) + "[" + n + "]" + name.substring(bracket);
        return new CType(spelled, size * n, align, this, n);
    }

    boolean isArray() {
        return element != null;
    }
}
