package io.vgpu.simulate.dra;

/** The identity of a device: {@code (driver, pool, device)} (spec §1.2). */
record DeviceId(String driver, String pool, String device) {

    @Override
    public String toString() {
        return driver + "/" + pool + "/" + device;
    }
}
