package io.vgpu.hamicore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import io.vgpu.hamicore.RegionLoad.Loaded;
import io.vgpu.hamicore.RegionLoad.Reason;
import io.vgpu.hamicore.RegionLoad.Rejected;

/**
 * Entry points to HAMi-core regions.
 *
 * <ul>
 *   <li>{@link #loadDirectory} / {@link #openFile}: what the monitor uses. They follow HAMi's
 *       {@code loadCache} exactly (file choice, 12-byte header, magic, v0-by-size and
 *       v1-by-major-and-size detection, files longer than the struct accepted) and additionally
 *       reject the interim 1.1+seqlock layout that HAMi misreads. Pure Java, no native code.</li>
 *   <li>{@link #mapAs}: maps a file with a given layout without any header check (tools, tests;
 *       HAMi's {@code CastSpec}).</li>
 *   <li>{@link #inMemory} / {@link #wrap}: regions in direct memory (fakes; see {@link FakeSharedRegion}).</li>
 *   <li>{@link #create}: creates or joins a region file the way libvgpu does (tools and tests
 *       that stand in for a CUDA process); needs the JNI library for {@code sem_init}.</li>
 * </ul>
 * Mapping is file I/O: call these off the event loop.
 */
public final class SharedRegions {

    /** Where libvgpu puts the region when {@value #CACHE_PATH_ENV} is unset. */
    public static final String DEFAULT_CACHE_PATH = "/tmp/cudevshr.cache";
    /** The container environment variable naming the region file. */
    public static final String CACHE_PATH_ENV = "CUDA_DEVICE_MEMORY_SHARED_CACHE";

    private SharedRegions() {
    }

    /**
     * Finds and maps the region of one container directory
     * ({@code <hook path>/containers/<pod uid>_<container>}).
     *
     * @return {@link Loaded}; {@link RegionLoad.Absent} while no {@code .cache} file exists;
     *         {@link Rejected} for a missing directory, too many cache files, or a bad file
     */
    public static RegionLoad loadDirectory(Path containerDirectory) {
        return RegionLoader.loadDirectory(containerDirectory);
    }

    /** Validates and maps one region file (steps 2–7 of HAMi's {@code loadCache}). */
    public static RegionLoad openFile(Path cacheFile) {
        return RegionLoader.openFile(cacheFile);
    }

    /**
     * Maps {@code file} read-write as {@code layout} without looking at its header.
     *
     * @return {@link Loaded}, or {@link Rejected} when the file is missing, smaller than the
     *         layout's struct, or cannot be mapped
     */
    public static RegionLoad mapAs(Path file, RegionLayout layout) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = channel.size();
            if (size < layout.structSize()) {
                return new Rejected(Reason.TOO_SMALL, "file size " + size + " too small for the " + layout
                        + " region (" + layout.structSize() + " bytes)");
            }
            ByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, layout.structSize());
            return new Loaded(new MappedSharedRegion(mapped, layout, file), file, List.of());
        } catch (NoSuchFileException e) {
            return new Rejected(Reason.FILE_MISSING, "file " + file + " does not exist");
        } catch (IOException | RuntimeException e) {
            return new Rejected(Reason.IO_ERROR, "cannot map " + file + ": " + e);
        }
    }

    /** A zero-filled region of {@code layout} in direct memory (not initialised: magic is 0). */
    public static SharedRegion inMemory(RegionLayout layout) {
        return new MappedSharedRegion(alignedDirect(layout.structSize()), layout, null);
    }

    /**
     * A region over an existing direct buffer (absolute offsets from index 0).
     *
     * @throws IllegalArgumentException when the buffer is not direct, too small, or not 8-byte aligned
     */
    public static SharedRegion wrap(ByteBuffer directBuffer, RegionLayout layout) {
        if (directBuffer.isDirect() && directBuffer.alignmentOffset(0, 8) != 0) {
            throw new IllegalArgumentException("the buffer must start on an 8-byte boundary");
        }
        return new MappedSharedRegion(directBuffer, layout, null);
    }

    /**
     * Creates {@code file} (or joins it, when another process already created it) exactly as
     * libvgpu's {@code try_create_shrreg} does: a {@code 2008953}-byte file, an fcntl write lock
     * over {@code [0, 2008952)} while initialising, v1.2 header fields, limits, both semaphores
     * ({@code sem_init(pshared=1, 1)}), the magic stored last, and {@code last_kernel_time} stamped
     * on every call. An already initialised file keeps its values. For tools and tests only.
     *
     * @throws IOException         when the file cannot be created, extended or mapped
     * @throws NativeLoadException when the JNI library (needed for {@code sem_init}) cannot load
     */
    public static SharedRegion create(Path file, RegionInit init) throws IOException {
        return RegionCreator.create(file, init);
    }

    static ByteBuffer alignedDirect(int size) {
        return ByteBuffer.allocateDirect(size + 8).alignedSlice(8).limit(size).slice();
    }
}
