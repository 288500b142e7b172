package io.vgpu.hamicore;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Set;

/** libvgpu's {@code try_create_shrreg} (region spec §2.3, steps 2–7) for tools and tests. */
final class RegionCreator {

    private static final FileAttribute<Set<PosixFilePermission>> RW_ALL =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-rw-rw-"));

    private RegionCreator() {
    }

    static SharedRegion create(Path file, RegionInit init) throws IOException {
        NativeLibrary.load();
        RegionLayout layout = RegionLayout.V1;
        int size = layout.structSize();
        try (FileChannel channel = openOrCreate(file)) {
            // step 2: one NUL at offset sizeof; never truncate (a longer file keeps its tail)
            channel.write(ByteBuffer.allocate(1), size);
            MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
            MappedSharedRegion region = new MappedSharedRegion(mapped, layout, file);
            // step 4: FileChannel.lock is an fcntl(F_SETLKW) record lock, as lockf(F_LOCK, size) is
            FileLock initLock = channel.lock(0, size, false);
            try {
                if (region.initializedFlag() != SharedRegion.MAGIC) {
                    initialise(region, layout, init);
                }
                region.putI64(layout.lastKernelTime, Instant.now().getEpochSecond());
            } finally {
                initLock.release();
            }
            return region;
        }
    }

    private static FileChannel openOrCreate(Path file) throws IOException {
        try {
            FileChannel created = FileChannel.open(file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE), RW_ALL);
            // libvgpu runs umask(0) before open(..., 0666): every user of the node may join
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
            return created;
        } catch (FileAlreadyExistsException exists) {
            return FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        }
    }

    /** Step 5, in libvgpu's order: every field first, then a release fence, then the magic. */
    private static void initialise(MappedSharedRegion region, RegionLayout layout, RegionInit init) {
        region.putI32(layout.majorVersion, 1);
        region.putI32(layout.minorVersion, 2);
        for (int d = 0; d < SharedRegion.MAX_DEVICES; d++) {
            region.putI64(layout.limitOffset(d), init.memoryLimit(d));
            region.putI64(layout.smLimitOffset(d), init.smLimit(d));
        }
        RegionSemaphore.initialise(region, layout.sem);
        RegionSemaphore.initialise(region, layout.semPostInit);
        region.putI32(layout.smInitFlag, 0);
        region.putI32(layout.utilizationSwitch, 1);
        region.putI32(layout.recentKernel, 2);
        region.putI32(layout.procNum, 0);
        region.putI32(layout.priority, init.priority());
        VarHandle.releaseFence();
        region.putI32(layout.initializedFlag, SharedRegion.MAGIC);
    }
}
