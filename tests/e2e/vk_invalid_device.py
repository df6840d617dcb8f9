#!/usr/bin/python3
"""Breaks one rule of the Vulkan spec on purpose: vkCreateDevice with no
queue. The validation layer must say so, natively or on a host behind
Conduit; the suites use it to show that they would see the layer's reports."""
import ctypes

vk = ctypes.CDLL("libvulkan.so.1")
VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO = 1
VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO = 3


class InstanceCreateInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p), ("flags", ctypes.c_uint32),
                ("pApplicationInfo", ctypes.c_void_p), ("enabledLayerCount", ctypes.c_uint32),
                ("ppEnabledLayerNames", ctypes.c_void_p), ("enabledExtensionCount", ctypes.c_uint32),
                ("ppEnabledExtensionNames", ctypes.c_void_p)]


class DeviceCreateInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p), ("flags", ctypes.c_uint32),
                ("queueCreateInfoCount", ctypes.c_uint32), ("pQueueCreateInfos", ctypes.c_void_p),
                ("enabledLayerCount", ctypes.c_uint32), ("ppEnabledLayerNames", ctypes.c_void_p),
                ("enabledExtensionCount", ctypes.c_uint32), ("ppEnabledExtensionNames", ctypes.c_void_p),
                ("pEnabledFeatures", ctypes.c_void_p)]


instance = ctypes.c_void_p()
assert vk.vkCreateInstance(ctypes.byref(InstanceCreateInfo(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO)), None,
                           ctypes.byref(instance)) == 0
count, gpu = ctypes.c_uint32(1), ctypes.c_void_p()
vk.vkEnumeratePhysicalDevices(instance, ctypes.byref(count), ctypes.byref(gpu))
device = ctypes.c_void_p()
# No queue: VUID-VkDeviceCreateInfo-queueCreateInfoCount-arraylength. What
# the driver does with it is undefined; the layer reports it first.
result = vk.vkCreateDevice(gpu, ctypes.byref(DeviceCreateInfo(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO)), None,
                           ctypes.byref(device))
print("vkCreateDevice:", result)
