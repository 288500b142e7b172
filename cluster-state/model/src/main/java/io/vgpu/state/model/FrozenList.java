package io.vgpu.state.model;

import java.util.AbstractList;
import java.util.Iterator;
import java.util.List;
import java.util.RandomAccess;
import java.util.function.Consumer;

/**
 * A read-only list that only {@link NodeInventory#copyDevices} makes, and only as the pooled instance every equal list
 * shares: a value built from another value's devices keeps them, and any other list, immutable or not, goes through
 * the pool. {@code List.copyOf}'s lists cannot serve as that mark, since any caller can make one: a registration's
 * devices, copied with {@code List.copyOf} while its strings were pooled, bypassed the pool and every node value kept
 * a copy of its own (6,500 lists of 8 GPUs per replica at 10,000 nodes). Equality and hash code are a list's
 * ({@link AbstractList}); the hash code is kept, since the lists are looked up in {@link NodeInventory}'s pool.
 */
final class FrozenList<E> extends AbstractList<E> implements RandomAccess {

    private final List<E> list;
    /** 0 until computed. */
    private int hash;

    FrozenList(List<? extends E> source) {
        this.list = List.copyOf(source);
    }

    @Override
    public E get(int index) {
        return list.get(index);
    }

    @Override
    public int size() {
        return list.size();
    }

    @Override
    public Iterator<E> iterator() {
        return list.iterator();
    }

    @Override
    public void forEach(Consumer<? super E> action) {
        list.forEach(action);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = list.hashCode();
            hash = h;
        }
        return h;
    }
}
