package io.vgpu.state.model;

/** Vendor words used on the wire. Only NVIDIA is implemented; the constant keeps the seam visible. */
public final class Vendor {

    /** HAMi's {@code CommonWord} for NVIDIA: the map key and the {@code type} of every allocation entry. */
    public static final String NVIDIA = "NVIDIA";

    private Vendor() {
    }
}
