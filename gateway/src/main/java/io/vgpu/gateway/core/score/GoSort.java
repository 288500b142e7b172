package io.vgpu.gateway.core.score;

/**
 * A line-by-line port of Go's {@code sort.Sort} (Go ≥ 1.24, {@code src/sort/zsortinterface.go}: pattern-
 * defeating quicksort with insertion sort for ≤ 12 elements, heapsort fallback, and the xorshift64
 * shifts 13/7/17 adopted in Go 1.24). HAMi sorts devices and nodes with it; the sort is not stable for
 * more than 12 elements, so a bit-exact device choice on large nodes needs the exact same sequence of
 * comparisons and swaps. Single-use, not thread-safe.
 */
final class GoSort {

    /** Go's {@code sort.Interface} without {@code Len}. */
    interface Data {
        /** Whether element i must sort before element j. */
        boolean less(int i, int j);

        /** Swaps elements i and j. */
        void swap(int i, int j);
    }

    private static final int INCREASING = 1;
    private static final int DECREASING = 2;
    private static final int UNKNOWN = 0;

    /** The shifts of {@code breakPatterns}' xorshift generator. */
    enum Xorshift {
        /** Go 1.19 – 1.23: {@code <<13, >>17, <<5}. */
        GO_1_19(13, 17, 5),
        /** Go 1.24 and later (golang/go#70144): {@code <<13, >>7, <<17}; what HAMi v2.10 is built with. */
        GO_1_24(13, 7, 17);

        final int a;
        final int b;
        final int c;

        Xorshift(int a, int b, int c) {
            this.a = a;
            this.b = b;
            this.c = c;
        }
    }

    private final Data data;
    private final Xorshift xorshift;
    private int swaps;

    private GoSort(Data data, Xorshift xorshift) {
        this.data = data;
        this.xorshift = xorshift;
    }

    /** Go's {@code sort.Sort(data)} for {@code n} elements. */
    static void sort(Data data, int n) {
        sort(data, n, Xorshift.GO_1_24);
    }

    /** {@link #sort(Data, int)} as a given Go release does it (tests compare with older toolchains). */
    static void sort(Data data, int n, Xorshift xorshift) {
        if (n <= 1) {
            return;
        }
        new GoSort(data, xorshift).pdqsort(0, n, bitsLen(n));
    }

    /** Go's {@code insertionSort(data, a, b)}: stable; what {@link #sort} does for n ≤ 12. */
    static void insertionSort(Data data, int a, int b) {
        for (int i = a + 1; i < b; i++) {
            for (int j = i; j > a && data.less(j, j - 1); j--) {
                data.swap(j, j - 1);
            }
        }
    }

    private static int bitsLen(long x) {
        return 64 - Long.numberOfLeadingZeros(x);
    }

    private void siftDown(int lo, int hi, int first) {
        int root = lo;
        while (true) {
            int child = 2 * root + 1;
            if (child >= hi) {
                return;
            }
            if (child + 1 < hi && data.less(first + child, first + child + 1)) {
                child++;
            }
            if (!data.less(first + root, first + child)) {
                return;
            }
            data.swap(first + root, first + child);
            root = child;
        }
    }

    private void heapSort(int a, int b) {
        int first = a;
        int lo = 0;
        int hi = b - a;
        for (int i = (hi - 1) / 2; i >= 0; i--) {
            siftDown(i, hi, first);
        }
        for (int i = hi - 1; i >= 0; i--) {
            data.swap(first, first + i);
            siftDown(lo, i, first);
        }
    }

    private void pdqsort(int a, int b, int limit) {
        final int maxInsertion = 12;
        boolean wasBalanced = true;
        boolean wasPartitioned = true;
        while (true) {
            int length = b - a;
            if (length <= maxInsertion) {
                insertionSort(data, a, b);
                return;
            }
            if (limit == 0) {
                heapSort(a, b);
                return;
            }
            if (!wasBalanced) {
                breakPatterns(a, b);
                limit--;
            }
            long pivotAndHint = choosePivot(a, b);
            int pivot = (int) (pivotAndHint >> 32);
            int hint = (int) pivotAndHint;
            if (hint == DECREASING) {
                reverseRange(a, b);
                pivot = (b - 1) - (pivot - a);
                hint = INCREASING;
            }
            if (wasBalanced && wasPartitioned && hint == INCREASING && partialInsertionSort(a, b)) {
                return;
            }
            if (a > 0 && !data.less(a - 1, pivot)) {
                a = partitionEqual(a, b, pivot);
                continue;
            }
            long midAndPartitioned = partition(a, b, pivot);
            int mid = (int) (midAndPartitioned >> 32);
            wasPartitioned = (int) midAndPartitioned != 0;
            int leftLen = mid - a;
            int rightLen = b - mid;
            int balanceThreshold = length / 8;
            if (leftLen < rightLen) {
                wasBalanced = leftLen >= balanceThreshold;
                pdqsort(a, mid, limit);
                a = mid + 1;
            } else {
                wasBalanced = rightLen >= balanceThreshold;
                pdqsort(mid + 1, b, limit);
                b = mid;
            }
        }
    }

    /** Returns {@code newpivot << 32 | alreadyPartitioned}. */
    private long partition(int a, int b, int pivot) {
        data.swap(a, pivot);
        int i = a + 1;
        int j = b - 1;
        while (i <= j && data.less(i, a)) {
            i++;
        }
        while (i <= j && !data.less(j, a)) {
            j--;
        }
        if (i > j) {
            data.swap(j, a);
            return ((long) j << 32) | 1L;
        }
        data.swap(i, j);
        i++;
        j--;
        while (true) {
            while (i <= j && data.less(i, a)) {
                i++;
            }
            while (i <= j && !data.less(j, a)) {
                j--;
            }
            if (i > j) {
                break;
            }
            data.swap(i, j);
            i++;
            j--;
        }
        data.swap(j, a);
        return (long) j << 32;
    }

    private int partitionEqual(int a, int b, int pivot) {
        data.swap(a, pivot);
        int i = a + 1;
        int j = b - 1;
        while (true) {
            while (i <= j && !data.less(a, i)) {
                i++;
            }
            while (i <= j && data.less(a, j)) {
                j--;
            }
            if (i > j) {
                break;
            }
            data.swap(i, j);
            i++;
            j--;
        }
        return i;
    }

    private boolean partialInsertionSort(int a, int b) {
        final int maxSteps = 5;
        final int shortestShifting = 50;
        int i = a + 1;
        for (int step = 0; step < maxSteps; step++) {
            while (i < b && !data.less(i, i - 1)) {
                i++;
            }
            if (i == b) {
                return true;
            }
            if (b - a < shortestShifting) {
                return false;
            }
            data.swap(i, i - 1);
            if (i - a >= 2) {
                for (int j = i - 1; j >= 1; j--) {
                    if (!data.less(j, j - 1)) {
                        break;
                    }
                    data.swap(j, j - 1);
                }
            }
            if (b - i >= 2) {
                for (int j = i + 1; j < b; j++) {
                    if (!data.less(j, j - 1)) {
                        break;
                    }
                    data.swap(j, j - 1);
                }
            }
        }
        return false;
    }

    private void breakPatterns(int a, int b) {
        int length = b - a;
        if (length >= 8) {
            long random = length; // xorshift state, a Go uint64
            long modulus = 1L << bitsLen(length);
            for (int idx = a + (length / 4) * 2 - 1; idx <= a + (length / 4) * 2 + 1; idx++) {
                random ^= random << xorshift.a;
                random ^= random >>> xorshift.b;
                random ^= random << xorshift.c;
                int other = (int) (random & (modulus - 1));
                if (other >= length) {
                    other -= length;
                }
                data.swap(idx, a + other);
            }
        }
    }

    /** Returns {@code pivot << 32 | hint}. */
    private long choosePivot(int a, int b) {
        final int shortestNinther = 50;
        final int maxSwaps = 4 * 3;
        int l = b - a;
        swaps = 0;
        int i = a + l / 4 * 1;
        int j = a + l / 4 * 2;
        int k = a + l / 4 * 3;
        if (l >= 8) {
            if (l >= shortestNinther) {
                i = medianAdjacent(i);
                j = medianAdjacent(j);
                k = medianAdjacent(k);
            }
            j = median(i, j, k);
        }
        int hint = swaps == 0 ? INCREASING : swaps == maxSwaps ? DECREASING : UNKNOWN;
        return ((long) j << 32) | hint;
    }

    /** Go's {@code median}: the index of the median of data[a], data[b], data[c], counting swaps. */
    private int median(int a, int b, int c) {
        if (data.less(b, a)) { // order2(a, b)
            swaps++;
            int t = a;
            a = b;
            b = t;
        }
        if (data.less(c, b)) { // order2(b, c)
            swaps++;
            int t = b;
            b = c;
            c = t;
        }
        if (data.less(b, a)) { // order2(a, b)
            swaps++;
            b = a;
        }
        return b;
    }

    private int medianAdjacent(int a) {
        return median(a - 1, a, a + 1);
    }

    private void reverseRange(int a, int b) {
        int i = a;
        int j = b - 1;
        while (i < j) {
            data.swap(i, j);
            i++;
            j--;
        }
    }
}
