package io.vgpu.hamicore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/** Region files for loader tests: a size and the three header ints, zeros elsewhere. */
final class RegionFixtures {

    private RegionFixtures() {
    }

    static Path file(Path dir, String name, long size, int magic, int major, int minor) throws IOException {
        Path file = dir.resolve(name);
        byte[] bytes = new byte[(int) size];
        ByteBuffer view = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (size >= 4) {
            view.putInt(0, magic);
        }
        if (size >= 8) {
            view.putInt(4, major);
        }
        if (size >= 12) {
            view.putInt(8, minor);
        }
        Files.write(file, bytes);
        return file;
    }

    static Path v1(Path dir, String name) throws IOException {
        return file(dir, name, RegionLayout.V1.fileSize(), SharedRegion.MAGIC, 1, 2);
    }
}
