package io.vgpu.gateway.core.dra;

/**
 * A JSON text embedded as is in a {@link JsonText} document (e.g. the opaque {@code VgpuConfig} parameters,
 * encoded by their own codec).
 *
 * @param json one complete JSON value
 */
record RawJson(String json) {
}
