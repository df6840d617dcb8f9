#!/usr/bin/python3
"""Breaks one rule of the Vulkan spec on purpose: vkCreateDevice of a queue
of priority 2 (priorities lie in [0, 1]), which no driver follows anywhere
and the host lets pass. The validation layer must say so, natively or on a
host behind Conduit; the suites use it to show that they would see the
layer's reports."""
import ctypes

vk = ctypes.CDLL("libvulkan.so.1")
VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO = 1
VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO = 2
VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO = 3


class InstanceCreateInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p), ("flags", ctypes.c_uint32),
                ("pApplicationInfo", ctypes.c_void_p), ("enabledLayerCount", ctypes.c_uint32),
                ("ppEnabledLayerNames", ctypes.c_void_p), ("enabledExtensionCount", ctypes.c_uint32),
                ("ppEnabledExtensionNames", ctypes.c_void_p)]


class DeviceQueueCreateInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p), ("flags", ctypes.c_uint32),
                ("queueFamilyIndex", ctypes.c_uint32), ("queueCount", ctypes.c_uint32),
                ("pQueuePriorities", ctypes.POINTER(ctypes.c_float))]


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
# VUID-VkDeviceQueueCreateInfo-pQueuePriorities-00383: a priority of 2.
priority = ctypes.c_float(2.0)
queue = DeviceQueueCreateInfo(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, None, 0, 0, 1, ctypes.pointer(priority))
info = DeviceCreateInfo(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, None, 0, 1, ctypes.cast(ctypes.pointer(queue), ctypes.c_void_p))
result = vk.vkCreateDevice(gpu, ctypes.byref(info), None, ctypes.byref(device))
print("vkCreateDevice:", result)
if result == 0:
    vk.vkDestroyDevice(device, None)
