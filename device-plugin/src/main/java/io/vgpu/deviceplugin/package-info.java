/** Node agent: kubelet device plugin, node registration and vGPU monitor. Filled by the node-side issue. */
package io.vgpu.deviceplugin;
